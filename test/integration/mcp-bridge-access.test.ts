import { describe, expect, it } from 'vitest';
import { connectToGateway } from '../support/mcp-gateway-client.ts';
import { docs, gateway, initialize, post, useMcpBridgeProject } from './mcp-bridge-project.ts';

const WRONG_TOKEN = 'wrong-secret-9876543210';

useMcpBridgeProject();

describe('who may use the tool bridge', () => {
  it('refuses a missing or unknown key with 401, as a JSON-RPC error with a Bearer challenge', async () => {
    for (const presented of ['', 'gw.notakey']) {
      const response = await post(initialize, { key: presented });
      expect(response.status).toBe(401);
      expect(response.headers.get('www-authenticate')).toMatch(/^Bearer /);
      expect(await response.json()).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32000, data: { type: 'authentication', status: 401 } } });
    }
  });

  it('refuses a project without MCP with 403 saying how to enable it', async () => {
    await gateway.admin({ command: 'project.create', projectId: 'plain' });
    const { key: plainKey } = await gateway.admin<{ key: string }>({ command: 'key.create', projectId: 'plain' });

    const response = await post(initialize, { key: plainKey });

    expect(response.status).toBe(403);
    const body = (await response.json()) as { error: { message: string; data: { code: string } } };
    expect(body.error.data.code).toBe('mcp_disabled');
    expect(body.error.message).toContain('project update plain --mcp on');
  });

  it("refuses the bridge where the project's access policy leaves out the mcp endpoints", async () => {
    await gateway.admin({ command: 'project.create', projectId: 'policy' });
    await gateway.admin({ command: 'project.update', projectId: 'policy', mcp: true, allowedEndpoints: ['chat'] });
    const { key: policyKey } = await gateway.admin<{ key: string }>({ command: 'key.create', projectId: 'policy' });

    const response = await post(initialize, { key: policyKey });

    expect(response.status).toBe(403);
    expect(await response.json()).toMatchObject({ error: { data: { code: 'endpoint_not_allowed' } } });
  });

  it("lists and calls only the servers and tools on the key's allowlists", async () => {
    const { id, key: narrowKey } = await gateway.admin<{ id: string; key: string }>({ command: 'key.create', projectId: 'access', name: 'narrow' });
    await gateway.admin({ command: 'key.update', projectId: 'access', keyId: id, mcpServers: ['docs'], mcpTools: ['docs__search', 'tickets__open'] });
    const narrow = await connectToGateway(gateway.url, narrowKey);
    try {
      // tickets__open is on the tool list, but its server is not on the server list: a tool must pass both.
      expect((await narrow.client.listTools()).tools.map((tool) => tool.name)).toEqual(['docs__search']);
      await expect(narrow.client.callTool({ name: 'docs__broken', arguments: {} })).rejects.toMatchObject({ code: -32602, message: expect.stringContaining('Unknown tool: docs__broken') });
      await expect(narrow.client.callTool({ name: 'tickets__open', arguments: {} })).rejects.toMatchObject({ code: -32602 });
      await expect(narrow.client.callTool({ name: 'docs__search', arguments: { query: 'q' } })).resolves.toMatchObject({ content: [{ text: '3 pages match "q"' }, {}] });
    } finally {
      await narrow.close();
    }
  });

  it('gives a key whose server list is "none" no MCP server: nothing listed, nothing callable', async () => {
    const { id, key: closedKey } = await gateway.admin<{ id: string; key: string }>({ command: 'key.create', projectId: 'access', name: 'closed' });
    await gateway.admin({ command: 'key.update', projectId: 'access', keyId: id, mcpServers: [] });
    const closed = await connectToGateway(gateway.url, closedKey);
    try {
      expect((await closed.client.listTools()).tools).toEqual([]);
      await expect(closed.client.callTool({ name: 'docs__search', arguments: { query: 'q' } })).rejects.toMatchObject({ code: -32602 });
    } finally {
      await closed.close();
    }
  });

  it('limits tool calls with the key\'s requests per minute: 429 with Retry-After once used up', async () => {
    const { id, key: limitedKey } = await gateway.admin<{ id: string; key: string }>({ command: 'key.create', projectId: 'access', name: 'limited' });
    await gateway.admin({ command: 'key.update', projectId: 'access', keyId: id, rpm: 1 });
    const call = { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'tickets__open', arguments: {} } };

    const first = await post(call, { key: limitedKey, accept: 'application/json' });
    const second = await post(call, { key: limitedKey, accept: 'application/json' });
    // A list is no tool call: it is not counted.
    const list = await post({ jsonrpc: '2.0', id: 3, method: 'tools/list' }, { key: limitedKey, accept: 'application/json' });

    expect(first.status).toBe(200);
    expect(second.status).toBe(429);
    expect(Number(second.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(await second.json()).toMatchObject({ error: { data: { code: 'requests_rate_limited' } } });
    expect(list.status).toBe(200);
  });

  it('never shows a header value back, even when the server echoes it in its refusal', async () => {
    await gateway.admin({ command: 'project.create', projectId: 'echo' });
    await gateway.admin({ command: 'project.update', projectId: 'echo', mcp: true });
    await gateway.admin({ command: 'mcp.add', projectId: 'echo', name: 'docs', url: docs.url, headers: [{ name: 'X-Docs-Token', value: WRONG_TOKEN }] });
    const { key: echoKey } = await gateway.admin<{ key: string }>({ command: 'key.create', projectId: 'echo' });
    const client = await connectToGateway(gateway.url, echoKey);
    try {
      const refusal = await client.client.listTools().catch((error: unknown) => error);
      expect(refusal).toMatchObject({ data: { servers: [{ server: 'docs', reason: 'unavailable' }] } });
      expect(String((refusal as Error).message)).toContain('token "[redacted]" is not valid here');
      const call = await client.client.callTool({ name: 'docs__search', arguments: { query: 'x' } });
      expect(JSON.stringify(call)).not.toContain(WRONG_TOKEN);
      expect(JSON.stringify(call)).toContain('HTTP 401');
    } finally {
      await client.close();
    }
    const listed = await gateway.admin({ command: 'mcp.list', projectId: 'echo' });
    expect(JSON.stringify(listed)).not.toContain(WRONG_TOKEN);
  });
});
