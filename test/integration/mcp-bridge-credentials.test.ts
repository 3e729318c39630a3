import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectToGateway } from '../support/mcp-gateway-client.ts';
import { startBearerEchoServer, type McpUpstream } from '../support/mcp-upstream-servers.ts';
import { startTestGateway, type TestGateway } from '../support/test-gateway.ts';

const TOKEN = 'TOKEN-vault-0123456789';
const WRONG_TOKEN = 'TOKEN-r401-XYZ';

let gateway: TestGateway;
let vault: McpUpstream;
const keys: Record<'right' | 'wrong', string> = { right: '', wrong: '' };

beforeAll(async () => {
  gateway = await startTestGateway();
  vault = await startBearerEchoServer(TOKEN);
  for (const [projectId, token] of [['right', TOKEN], ['wrong', WRONG_TOKEN]] as const) {
    await gateway.admin({ command: 'project.create', projectId });
    await gateway.admin({ command: 'project.update', projectId, mcp: true });
    await gateway.admin({ command: 'mcp.add', projectId, name: 'vault', url: vault.url, headers: [{ name: 'Authorization', value: `Bearer ${token}` }] });
    keys[projectId] = (await gateway.admin<{ key: string }>({ command: 'key.create', projectId })).key;
  }
}, 30_000);

afterAll(async () => {
  await gateway?.close();
  await vault?.close();
});

/** One JSON-RPC request to the bridge with a project's key; the answer's text, as a client would read it. */
async function ask(projectId: 'right' | 'wrong', method: string, params?: unknown): Promise<string> {
  const response = await fetch(`${gateway.url}/mcp/v1`, {
    method: 'POST',
    headers: { authorization: `Bearer ${keys[projectId]}`, 'content-type': 'application/json', accept: 'application/json', 'mcp-protocol-version': '2025-06-18' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, ...(params === undefined ? {} : { params }) }),
  });
  expect(response.status).toBe(200);
  return response.text();
}

describe("the tool bridge keeps an MCP server's credential server-side", () => {
  it('redacts the token a refusing server echoes without its scheme, on every method', async () => {
    const list = await ask('wrong', 'tools/list');
    expect(list).toContain('could not be reached: HTTP 401: invalid token [redacted]');
    const call = await ask('wrong', 'tools/call', { name: 'vault__whoami', arguments: {} });
    expect(JSON.parse(call)).toMatchObject({ result: { isError: true, content: [{ text: expect.stringContaining('invalid token [redacted]') }] } });
    const prompt = await ask('wrong', 'prompts/get', { name: 'vault__greet' });
    expect(prompt).toContain('invalid token [redacted]');
    for (const answer of [list, call, prompt]) expect(answer).not.toContain(WRONG_TOKEN);
  });

  it("redacts the token from the server's JSON-RPC errors", async () => {
    const call = await ask('right', 'tools/call', { name: 'vault__reject', arguments: {} });
    expect(JSON.parse(call)).toMatchObject({ error: { message: expect.stringContaining('token [redacted] rejected') } });
    const prompt = await ask('right', 'prompts/get', { name: 'vault__greet' });
    expect(JSON.parse(prompt)).toMatchObject({ error: { message: expect.stringContaining('token [redacted] rejected') } });
    for (const answer of [call, prompt]) expect(answer).not.toContain(TOKEN);
  });

  it("redacts the token from what the server answers itself: lists, results, isError results", async () => {
    const list = await ask('right', 'tools/list');
    expect(JSON.parse(list)).toMatchObject({ result: { tools: [{ name: 'vault__whoami', description: 'Uses token [redacted]' }, {}, {}] } });
    const expired = await ask('right', 'tools/call', { name: 'vault__expired', arguments: {} });
    expect(JSON.parse(expired)).toMatchObject({ result: { isError: true, content: [{ text: 'token [redacted] has expired' }] } });
    for (const answer of [list, expired]) expect(answer).not.toContain(TOKEN);
  });

  it('redacts the token from a tool result and its progress notifications, and leaves the rest as the server said it', async () => {
    const client = await connectToGateway(gateway.url, keys.right);
    try {
      const progress: unknown[] = [];
      const result = await client.client.callTool({ name: 'vault__whoami', arguments: {} }, undefined, { onprogress: (update) => void progress.push(update) });
      expect(result).toEqual({ content: [{ type: 'text', text: 'signed in with [redacted]' }], structuredContent: { token: '[redacted]', user: 'ada', sessions: { '[redacted]': 'active' } } });
      expect(progress).toEqual([{ progress: 1, message: 'checking [redacted]' }]);
    } finally {
      await client.close();
    }
  });
});
