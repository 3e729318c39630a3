import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryLocalUsage } from '../../tools/cli/local-usage-query.ts';
import { connectToGateway } from '../support/mcp-gateway-client.ts';
import { startDocsServer, startTicketsServer, type McpUpstream } from '../support/mcp-upstream-servers.ts';
import { startTestGateway, type TestGateway } from '../support/test-gateway.ts';

const DOCS_TOKEN = 'docs-secret-0123456789';
const WRONG_TOKEN = 'wrong-secret-9876543210';

let gateway: TestGateway;
let docs: McpUpstream;
let tickets: McpUpstream;
let key: string;

beforeAll(async () => {
  gateway = await startTestGateway();
  docs = await startDocsServer(DOCS_TOKEN);
  tickets = await startTicketsServer();
  await gateway.admin({ command: 'project.create', projectId: 'access' });
  await gateway.admin({ command: 'project.update', projectId: 'access', mcp: true });
  await gateway.admin({ command: 'mcp.add', projectId: 'access', name: 'docs', url: docs.url, headers: [{ name: 'X-Docs-Token', value: DOCS_TOKEN }] });
  await gateway.admin({ command: 'mcp.add', projectId: 'access', name: 'tickets', url: tickets.url });
  ({ key } = await gateway.admin<{ key: string }>({ command: 'key.create', projectId: 'access' }));
}, 30_000);

afterAll(async () => {
  await gateway?.close();
  await docs?.close();
  await tickets?.close();
});

const initialize = { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } } };

/** One raw POST to the bridge, as an MCP client sends it unless `accept` says otherwise. */
function post(body: unknown, options: { key?: string; accept?: string } = {}): Promise<Response> {
  return fetch(`${gateway.url}/mcp/v1`, {
    method: 'POST',
    headers: {
      ...(options.key === '' ? {} : { authorization: `Bearer ${options.key ?? key}` }),
      'content-type': 'application/json',
      accept: options.accept ?? 'application/json, text/event-stream',
      'mcp-protocol-version': '2025-06-18',
    },
    body: JSON.stringify(body),
  });
}

interface Generation {
  id: string;
  endpoint: string;
  model: string;
  provider: string;
  status: string;
  http_status: number;
  error_code: string | null;
  total_cost: number;
  latency_ms: number;
  request_bytes: number | null;
  response_bytes: number | null;
  streamed: boolean;
}

async function generation(id: string): Promise<Generation> {
  await gateway.host.drainUsage();
  const response = await fetch(`${gateway.url}/v1/generation?id=${encodeURIComponent(id)}`, { headers: { authorization: `Bearer ${key}` } });
  expect(response.status).toBe(200);
  return (await response.json()) as Generation;
}

describe('who may use the tool bridge', () => {
  it('refuses a missing or unknown key with 401, as a JSON-RPC error with a Bearer challenge', async () => {
    for (const presented of ['', 'gw.notakey']) {
      const response = await post(initialize, { key: presented });
      expect(response.status).toBe(401);
      expect(response.headers.get('www-authenticate')).toMatch(/^Bearer /);
      expect(await response.json()).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32001, data: { status: 401 } } });
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

describe('the Streamable HTTP transport of the bridge', () => {
  it('answers JSON when the client accepts only JSON, and SSE when it accepts both', async () => {
    const json = await post(initialize, { accept: 'application/json' });
    expect(json.headers.get('content-type')).toMatch(/^application\/json/);
    expect(await json.json()).toMatchObject({ jsonrpc: '2.0', id: 1, result: { serverInfo: { name: 'aws-model-gateway' } } });

    const sse = await post(initialize);
    expect(sse.headers.get('content-type')).toMatch(/^text\/event-stream/);
    const text = await sse.text();
    expect(text).toMatch(/^event: message\ndata: \{.*"serverInfo":\{"name":"aws-model-gateway"/m);
  });

  it('answers JSON when the client ranks it higher, and 406 when it accepts neither', async () => {
    const ranked = await post(initialize, { accept: 'text/event-stream;q=0.5, application/json' });
    expect(ranked.headers.get('content-type')).toMatch(/^application\/json/);
    expect((await post(initialize, { accept: 'text/html' })).status).toBe(406);
  });

  it('needs no session: a tool call without initialize is served', async () => {
    const response = await post({ jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name: 'tickets__close', arguments: {} } }, { accept: 'application/json' });
    expect(response.headers.get('mcp-session-id')).toBeNull();
    expect(await response.json()).toEqual({ jsonrpc: '2.0', id: 7, result: { content: [{ type: 'text', text: 'ticket closed' }] } });
  });

  it('offers no server-initiated stream (GET is 405), and DELETE, with no session to end, succeeds', async () => {
    const get = await fetch(`${gateway.url}/mcp/v1`, { headers: { authorization: `Bearer ${key}`, accept: 'text/event-stream' } });
    expect(get.status).toBe(405);
    expect(get.headers.get('allow')).toBe('POST, DELETE');
    const deleted = await fetch(`${gateway.url}/mcp/v1`, { method: 'DELETE', headers: { authorization: `Bearer ${key}` } });
    expect(deleted.status).toBe(200);
  });

  it('answers any other method 405 with an Allow that lists only POST and DELETE, not the GET it refuses', async () => {
    for (const method of ['PUT', 'OPTIONS', 'PATCH', 'HEAD']) {
      const refused = await fetch(`${gateway.url}/mcp/v1`, { method, headers: { authorization: `Bearer ${key}` } });
      expect({ method, status: refused.status, allow: refused.headers.get('allow') }).toEqual({ method, status: 405, allow: 'POST, DELETE' });
    }
  });

  it('answers a malformed body with a JSON-RPC parse error', async () => {
    const response = await fetch(`${gateway.url}/mcp/v1`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: '{"jsonrpc": "2.0", ',
    });
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ jsonrpc: '2.0', error: { code: -32700 } });
  });

  it('answers a message nested too deep with 400 and a JSON-RPC parse error, before any server is called', async () => {
    const arguments_ = `${'['.repeat(200_000)}${']'.repeat(200_000)}`;
    const before = docs.received.length;
    const response = await fetch(`${gateway.url}/mcp/v1`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"docs__search","arguments":{"query":${arguments_}}}}`,
    });
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32700, data: { code: 'json_too_deep' } } });
    expect(docs.received.length).toBe(before);
  });

  it('refuses a batch of more than 32 messages with 400 and a JSON-RPC invalid request, before any server is called', async () => {
    const call = (id: number) => ({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'tickets__close', arguments: {} } });
    const before = tickets.received.length;
    const response = await post(Array.from({ length: 33 }, (_, index) => call(index + 1)), { accept: 'application/json' });

    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({
      jsonrpc: '2.0',
      id: null,
      error: {
        code: -32600,
        message: 'Invalid Request: a batch may hold at most 32 messages; this one holds 33. Send the rest in further POSTs.',
        data: { type: 'invalid_request', code: 'batch_too_large', status: 400 },
      },
    });
    expect(tickets.received.length).toBe(before);
    const answered = await post(Array.from({ length: 32 }, (_, index) => call(index + 1)), { accept: 'application/json' });
    expect(await answered.json()).toHaveLength(32);
  });
});

describe('metering of bridged tool calls', () => {
  it('records each call (server, tool, latency, status, bytes) under the request id the response carries', async () => {
    const client = await connectToGateway(gateway.url, key);
    try {
      await client.client.callTool({ name: 'docs__search', arguments: { query: 'metering' } });
      const searchId = client.requestIds.at(-1) ?? '';
      await client.client.callTool({ name: 'docs__broken', arguments: {} });
      const brokenId = client.requestIds.at(-1) ?? '';

      const search = await generation(searchId);
      expect(search).toMatchObject({ id: searchId, endpoint: 'mcp.tools_call', model: 'mcp/docs/search', provider: 'mcp', status: 'completed', http_status: 200, error_code: null, total_cost: 0, streamed: true });
      expect(search.request_bytes).toBe(Buffer.byteLength(JSON.stringify({ name: 'search', arguments: { query: 'metering' } })));
      expect(search.response_bytes).toBeGreaterThan(Buffer.byteLength('3 pages match "metering"'));
      expect(search.latency_ms).toBeGreaterThanOrEqual(0);
      await expect(generation(brokenId)).resolves.toMatchObject({ model: 'mcp/docs/broken', status: 'failed', error_code: 'tool_error' });

      const rows = await queryLocalUsage(
        gateway.host.dataDir,
        `SELECT endpoint, model, status, request_bytes, response_bytes, cost_nanos FROM usage_records WHERE id = '${searchId}'`,
      );
      expect(rows).toEqual([{ endpoint: 'mcp.tools_call', model: 'mcp/docs/search', status: 'completed', request_bytes: search.request_bytes, response_bytes: search.response_bytes, cost_nanos: 0 }]);
    } finally {
      await client.close();
    }
  });

  it('records each call of a batch under the request id and its position in the batch, one record per call', async () => {
    const call = (id: string, name: string) => ({ jsonrpc: '2.0', id, method: 'tools/call', params: { name, arguments: name === 'docs__search' ? { query: 'batch' } : {} } });
    const response = await post([{ jsonrpc: '2.0', id: 'list', method: 'tools/list' }, call('close', 'tickets__close'), call('search', 'docs__search')], { accept: 'application/json' });
    const requestId = response.headers.get('x-request-id') ?? '';
    expect(await response.json()).toHaveLength(3);

    await expect(generation(`${requestId}-2`)).resolves.toMatchObject({ id: `${requestId}-2`, model: 'mcp/tickets/close', status: 'completed' });
    await expect(generation(`${requestId}-3`)).resolves.toMatchObject({ id: `${requestId}-3`, model: 'mcp/docs/search', status: 'completed' });
    const rows = await queryLocalUsage(gateway.host.dataDir, `SELECT id, model FROM usage_records WHERE id LIKE '${requestId}%' ORDER BY id`);
    expect(rows).toEqual([
      { id: `${requestId}-2`, model: 'mcp/tickets/close' },
      { id: `${requestId}-3`, model: 'mcp/docs/search' },
    ]);
  });

  it('records every call of a batch that repeats a JSON-RPC id under a position of its own, none merged or lost; the answer holds one response per id', async () => {
    const call = (id: number, name: string) => ({ jsonrpc: '2.0', id, method: 'tools/call', params: { name, arguments: name === 'docs__search' ? { query: 'again' } : {} } });
    const response = await post([call(1, 'tickets__close'), call(1, 'docs__search'), call(2, 'tickets__open'), call(1, 'tickets__assign')], { accept: 'application/json' });
    const requestId = response.headers.get('x-request-id') ?? '';
    const answers = (await response.json()) as Array<{ id: number }>;

    expect(answers.map(({ id }) => id).sort()).toEqual([1, 2]);
    const models = ['mcp/tickets/close', 'mcp/docs/search', 'mcp/tickets/open', 'mcp/tickets/assign'];
    for (const [index, model] of models.entries()) {
      await expect(generation(`${requestId}-${index + 1}`)).resolves.toMatchObject({ model, status: 'completed' });
    }
    const rows = await queryLocalUsage(gateway.host.dataDir, `SELECT id, model FROM usage_records WHERE id LIKE '${requestId}%' ORDER BY id`);
    expect(rows).toEqual(models.map((model, index) => ({ id: `${requestId}-${index + 1}`, model })));
  });

  it('meters a call to a server that is down as failed, and meters nothing for lists', async () => {
    await gateway.admin({ command: 'mcp.add', projectId: 'access', name: 'gone', url: 'http://127.0.0.1:9/mcp' });
    const response = await post({ jsonrpc: '2.0', id: 9, method: 'tools/call', params: { name: 'gone__x', arguments: {} } }, { accept: 'application/json' });
    const id = response.headers.get('x-request-id') ?? '';
    expect(await response.json()).toMatchObject({ result: { isError: true } });
    await expect(generation(id)).resolves.toMatchObject({ model: 'mcp/gone/x', status: 'failed', http_status: 502, error_code: 'mcp_upstream_unavailable', response_bytes: null, streamed: false });

    const list = await post({ jsonrpc: '2.0', id: 10, method: 'tools/list' }, { accept: 'application/json' });
    const listId = list.headers.get('x-request-id') ?? '';
    await gateway.host.drainUsage();
    const lookup = await fetch(`${gateway.url}/v1/generation?id=${listId}`, { headers: { authorization: `Bearer ${key}` } });
    expect(lookup.status).toBe(404);
    await gateway.admin({ command: 'mcp.remove', projectId: 'access', name: 'gone' });
  });
});
