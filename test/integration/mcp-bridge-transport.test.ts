import { describe, expect, it } from 'vitest';
import { docs, gateway, initialize, key, post, tickets, useMcpBridgeProject } from './mcp-bridge-project.ts';

useMcpBridgeProject();

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
    expect(get.headers.get('allow')).toBe('POST, DELETE, OPTIONS');
    const deleted = await fetch(`${gateway.url}/mcp/v1`, { method: 'DELETE', headers: { authorization: `Bearer ${key}` } });
    expect(deleted.status).toBe(200);
  });

  it('answers any other method 405 with an Allow that lists only POST, DELETE and OPTIONS, not the GET it refuses', async () => {
    for (const method of ['PUT', 'PATCH', 'HEAD']) {
      const refused = await fetch(`${gateway.url}/mcp/v1`, { method, headers: { authorization: `Bearer ${key}` } });
      expect({ method, status: refused.status, allow: refused.headers.get('allow') }).toEqual({ method, status: 405, allow: 'POST, DELETE, OPTIONS' });
    }
    // OPTIONS (a browser client's preflight) is answered, without a key: docs/decisions/cors.md.
    const options = await fetch(`${gateway.url}/mcp/v1`, { method: 'OPTIONS' });
    expect({ status: options.status, allow: options.headers.get('allow') }).toEqual({ status: 204, allow: 'POST, DELETE, OPTIONS' });
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

  it('takes out of a batch the requests it cancels itself: they get no answer, and the rest is answered (the POST does not wait for them)', async () => {
    const call = (id: number, name: string) => ({ jsonrpc: '2.0', id, method: 'tools/call', params: { name, arguments: {} } });
    const cancel = (requestId: number) => ({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId, reason: 'no longer needed' } });

    // A batch is answered with an array, though one answer is left in it.
    const json = await post([call(1, 'tickets__open'), call(2, 'tickets__close'), cancel(1)], { accept: 'application/json' });
    expect(await json.json()).toEqual([{ jsonrpc: '2.0', id: 2, result: { content: [{ type: 'text', text: 'ticket closed' }] } }]);

    const sse = await post([cancel(3), { jsonrpc: '2.0', id: 3, method: 'tools/list' }, call(4, 'tickets__close')]);
    const events = (await sse.text()).split('\n').filter((line) => line.startsWith('data: '));
    expect(events.map((line) => (JSON.parse(line.slice(6)) as { id: unknown }).id)).toEqual([4]);

    const everyOneCancelled = await post([call(5, 'docs__stall'), cancel(5)], { accept: 'application/json' });
    expect(everyOneCancelled.status).toBe(202);
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

  it('answers a batch of one request with an array of one answer, and an empty batch with 400 and one invalid request error (JSON-RPC 2.0 §6)', async () => {
    const one = await post([{ jsonrpc: '2.0', id: 9, method: 'ping' }], { accept: 'application/json' });
    expect(await one.json()).toEqual([{ jsonrpc: '2.0', id: 9, result: {} }]);

    const empty = await post([], { accept: 'application/json' });
    expect(empty.status).toBe(400);
    expect(await empty.json()).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32600, data: { code: 'empty_batch' } } });
  });

  it('refuses a batch holding two requests with one id with 400 and a JSON-RPC invalid request, before any server is called (one of them would go unanswered)', async () => {
    const call = (id: number) => ({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'tickets__close', arguments: {} } });
    const before = tickets.received.length;
    const response = await post([call(7), call(8), call(7)], { accept: 'application/json' });

    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32600, data: { code: 'repeated_request_id' } } });
    expect(tickets.received.length).toBe(before);
  });
});
