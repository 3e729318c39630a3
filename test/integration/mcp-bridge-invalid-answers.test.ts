import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectToGateway, type GatewayMcpClient } from '../support/mcp-gateway-client.ts';
import { startHangUpServer, startPlainJsonServer, startSloppyServer, startTicketsServer, type McpUpstream } from '../support/mcp-upstream-servers.ts';
import { startTestGateway, type TestGateway } from '../support/test-gateway.ts';

let gateway: TestGateway;
let sloppy: McpUpstream & { calls: number };
let tickets: McpUpstream;
let mcp: GatewayMcpClient;
let hangup: McpUpstream & { methods: string[] };
let hangupKey: string;
let plain: McpUpstream & { calls: number };
let plainKey: string;

beforeAll(async () => {
  // Shorter than a test may take: a call that waited it out would fail its assertions, not the test's time limit.
  gateway = await startTestGateway({ GATEWAY_MCP_UPSTREAM_TIMEOUT_MS: '10000' });
  sloppy = await startSloppyServer();
  tickets = await startTicketsServer();
  hangup = await startHangUpServer();
  plain = await startPlainJsonServer();
  await gateway.admin({ command: 'project.create', projectId: 'sloppy' });
  await gateway.admin({ command: 'project.update', projectId: 'sloppy', mcp: true });
  await gateway.admin({ command: 'mcp.add', projectId: 'sloppy', name: 'sloppy', url: sloppy.url });
  await gateway.admin({ command: 'mcp.add', projectId: 'sloppy', name: 'tickets', url: tickets.url });
  const { key } = await gateway.admin<{ key: string }>({ command: 'key.create', projectId: 'sloppy' });
  mcp = await connectToGateway(gateway.url, key);
  await gateway.admin({ command: 'project.create', projectId: 'hangup' });
  await gateway.admin({ command: 'project.update', projectId: 'hangup', mcp: true });
  await gateway.admin({ command: 'mcp.add', projectId: 'hangup', name: 'hangup', url: hangup.url });
  await gateway.admin({ command: 'mcp.add', projectId: 'hangup', name: 'tickets', url: tickets.url });
  ({ key: hangupKey } = await gateway.admin<{ key: string }>({ command: 'key.create', projectId: 'hangup' }));
  await gateway.admin({ command: 'project.create', projectId: 'plain' });
  await gateway.admin({ command: 'project.update', projectId: 'plain', mcp: true });
  await gateway.admin({ command: 'mcp.add', projectId: 'plain', name: 'plain', url: plain.url });
  ({ key: plainKey } = await gateway.admin<{ key: string }>({ command: 'key.create', projectId: 'plain' }));
}, 30_000);

afterAll(async () => {
  await mcp?.close();
  await gateway?.close();
  await sloppy?.close();
  await tickets?.close();
  await hangup?.close();
  await plain?.close();
});

const call = (id: number, name: string) => ({ jsonrpc: '2.0', id, method: 'tools/call', params: { name, arguments: {} } });

interface Answer {
  jsonrpc: string;
  result?: unknown;
  error?: unknown;
}

/** A raw POST of JSON-RPC messages to the bridge, answered in JSON; the answers by id, and the POST's request id. */
async function postForJson(key: string, body: unknown): Promise<{ requestId: string; answers: Record<string, Answer> }> {
  const response = await fetch(`${gateway.url}/mcp/v1`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', accept: 'application/json', 'mcp-protocol-version': '2025-06-18' },
    body: JSON.stringify(body),
  });
  const answered = (await response.json()) as Array<Answer & { id: number }> | (Answer & { id: number });
  return { requestId: response.headers.get('x-request-id') ?? '', answers: Object.fromEntries((Array.isArray(answered) ? answered : [answered]).map(({ id, ...answer }) => [id, answer])) };
}

/** The usage record a request id names, once the local queue has delivered it. */
async function recorded(key: string, id: string): Promise<unknown> {
  await gateway.host.drainUsage();
  return (await fetch(`${gateway.url}/v1/generation?id=${id}`, { headers: { authorization: `Bearer ${key}` } })).json();
}

describe('a server that answers something that is not valid MCP', () => {
  it('is named in a list as answering invalid MCP, with the first thing wrong on one line, not as unreachable', async () => {
    const page = await mcp.client.listTools();

    expect(page.tools.map((tool) => tool.name)).toEqual(['tickets__open', 'tickets__close']);
    expect(page._meta).toEqual({
      'model-gateway/unavailable-servers': [
        { server: 'sloppy', reason: 'invalid', message: 'The MCP server "sloppy" answered with something that is not valid MCP: tools[1].inputSchema.type: Invalid input: expected "object"' },
      ],
    });
  });

  it('makes a tool call that ran answer an error result saying so, metered as an invalid answer', async () => {
    const before = sloppy.calls;
    const result = await mcp.client.callTool({ name: 'sloppy__fine', arguments: {} });

    expect(sloppy.calls).toBe(before + 1);
    expect(result).toEqual({
      content: [{ type: 'text', text: expect.stringMatching(/^The MCP server "sloppy" answered with something that is not valid MCP: content\[0\]: Invalid input$/) }],
      isError: true,
    });
    const requestId = mcp.requestIds.at(-1) ?? '';
    await gateway.host.drainUsage();
    const lookup = await fetch(`${gateway.url}/v1/generation?id=${requestId}`, { headers: { authorization: `Bearer ${mcp.key}` } });
    expect(await lookup.json()).toMatchObject({ model: 'mcp/sloppy/fine', status: 'failed', http_status: 502, error_code: 'mcp_upstream_invalid_answer' });
  });
});

describe('a server that closes its answer stream without the answer', () => {
  it('fails that call at once, as unavailable, or as not valid MCP when the stream carried something unreadable, while the rest of the batch is answered on the same connection', async () => {
    const before = hangup.methods.length;
    const { requestId, answers } = await postForJson(hangupKey, [call(1, 'hangup__silent'), call(2, 'hangup__garbled'), call(3, 'hangup__fine'), call(4, 'tickets__close')]);

    expect(Object.fromEntries(Object.entries(answers).map(([id, answer]) => [id, answer.result]))).toEqual({
      1: { content: [{ type: 'text', text: 'The MCP server "hangup" could not be reached: the stream of its answer ended without the answer' }], isError: true },
      2: { content: [{ type: 'text', text: expect.stringMatching(/^The MCP server "hangup" answered with something that is not valid MCP: not JSON \(/) }], isError: true },
      3: { content: [{ type: 'text', text: 'fine' }] },
      4: { content: [{ type: 'text', text: 'ticket closed' }] },
    });
    expect(hangup.methods.slice(before).filter((method) => method === 'initialize')).toEqual(['initialize']);
    await expect(recorded(hangupKey, `${requestId}-1`)).resolves.toMatchObject({ model: 'mcp/hangup/silent', status: 'failed', http_status: 502, error_code: 'mcp_upstream_unavailable' });
    await expect(recorded(hangupKey, `${requestId}-2`)).resolves.toMatchObject({ model: 'mcp/hangup/garbled', status: 'failed', http_status: 502, error_code: 'mcp_upstream_invalid_answer' });
  });
});

describe('a server whose answer is cut off in the middle of an event', () => {
  it('fails that call at once as cut off (not as unreadable JSON, not as unreachable) when the connection is lost or the stream ends mid-event, metered as interrupted', async () => {
    const { requestId, answers } = await postForJson(hangupKey, [call(1, 'hangup__dropped'), call(2, 'hangup__truncated'), call(3, 'hangup__fine')]);

    expect(Object.fromEntries(Object.entries(answers).map(([id, answer]) => [id, answer.result]))).toEqual({
      1: { content: [{ type: 'text', text: expect.stringMatching(/^The MCP server "hangup" was reached, but its answer was cut off: the connection was lost \(/) }], isError: true },
      2: { content: [{ type: 'text', text: 'The MCP server "hangup" was reached, but its answer was cut off: its event stream ended in the middle of an event' }], isError: true },
      3: { content: [{ type: 'text', text: 'fine' }] },
    });
    await expect(recorded(hangupKey, `${requestId}-1`)).resolves.toMatchObject({ model: 'mcp/hangup/dropped', status: 'failed', http_status: 502, error_code: 'mcp_upstream_interrupted' });
    await expect(recorded(hangupKey, `${requestId}-2`)).resolves.toMatchObject({ model: 'mcp/hangup/truncated', status: 'failed', http_status: 502, error_code: 'mcp_upstream_interrupted' });
  });
});

describe('a server that answers with a JSON-RPC error of its own', () => {
  it("relays it as the server's error with its code, even the codes the SDK gives a closed connection (-32000) and a time-out (-32001), metered as the server's error", async () => {
    const { requestId, answers } = await postForJson(plainKey, [call(1, 'plain__busy'), call(2, 'plain__late')]);

    expect(answers).toEqual({
      1: { jsonrpc: '2.0', error: { code: -32000, message: 'The MCP server "plain" answered with an error: Too many searches running; try again in a minute', data: { server: 'plain', reason: 'error' } } },
      2: { jsonrpc: '2.0', error: { code: -32001, message: 'The MCP server "plain" answered with an error: The index did not answer in time', data: { server: 'plain', reason: 'error' } } },
    });
    await expect(recorded(plainKey, `${requestId}-1`)).resolves.toMatchObject({ model: 'mcp/plain/busy', status: 'failed', http_status: 200, error_code: 'mcp_upstream_error' });
    await expect(recorded(plainKey, `${requestId}-2`)).resolves.toMatchObject({ model: 'mcp/plain/late', status: 'failed', http_status: 200, error_code: 'mcp_upstream_error' });
  });
});

describe('a server that answers a request in plain JSON without its answer', () => {
  it('fails that call at once as not valid MCP (a notification, or the answer to another request, is not its answer), while the rest of the batch is answered', async () => {
    const before = plain.calls;
    const { requestId, answers } = await postForJson(plainKey, [call(1, 'plain__aside'), call(2, 'plain__misaddressed'), call(3, 'plain__fine')]);

    const notItsAnswer = { content: [{ type: 'text', text: 'The MCP server "plain" answered with something that is not valid MCP: a JSON body without the answer to the request' }], isError: true };
    expect(answers).toEqual({
      1: { jsonrpc: '2.0', result: notItsAnswer },
      2: { jsonrpc: '2.0', result: notItsAnswer },
      3: { jsonrpc: '2.0', result: { content: [{ type: 'text', text: 'fine' }] } },
    });
    expect(plain.calls).toBe(before + 3);
    await expect(recorded(plainKey, `${requestId}-1`)).resolves.toMatchObject({ model: 'mcp/plain/aside', status: 'failed', http_status: 502, error_code: 'mcp_upstream_invalid_answer' });
    await expect(recorded(plainKey, `${requestId}-2`)).resolves.toMatchObject({ model: 'mcp/plain/misaddressed', status: 'failed', http_status: 502, error_code: 'mcp_upstream_invalid_answer' });
  });
});

describe('a server that answers a request with no body (HTTP 202 Accepted, or 204)', () => {
  it('fails that call at once as not valid MCP, not at the time-out, while the rest of the batch is answered', async () => {
    const before = plain.calls;
    const { requestId, answers } = await postForJson(plainKey, [call(1, 'plain__accepted'), call(2, 'plain__emptied'), call(3, 'plain__fine')]);

    const noAnswer = (status: number) => ({ content: [{ type: 'text', text: `The MCP server "plain" answered with something that is not valid MCP: HTTP ${status} without the answer to the request` }], isError: true });
    expect(answers).toEqual({
      1: { jsonrpc: '2.0', result: noAnswer(202) },
      2: { jsonrpc: '2.0', result: noAnswer(204) },
      3: { jsonrpc: '2.0', result: { content: [{ type: 'text', text: 'fine' }] } },
    });
    expect(plain.calls).toBe(before + 3);
    await expect(recorded(plainKey, `${requestId}-1`)).resolves.toMatchObject({ model: 'mcp/plain/accepted', status: 'failed', http_status: 502, error_code: 'mcp_upstream_invalid_answer' });
    await expect(recorded(plainKey, `${requestId}-2`)).resolves.toMatchObject({ model: 'mcp/plain/emptied', status: 'failed', http_status: 502, error_code: 'mcp_upstream_invalid_answer' });
  });
});

describe('a server that answers a request with no Content-Type', () => {
  it('fails that call as not valid MCP (it was reached), not as unreachable, metered as an invalid answer', async () => {
    const { requestId, answers } = await postForJson(plainKey, [call(1, 'plain__untyped'), call(2, 'plain__fine')]);

    expect(answers).toEqual({
      1: {
        jsonrpc: '2.0',
        result: {
          content: [{ type: 'text', text: 'The MCP server "plain" answered with something that is not valid MCP: an answer with no content type, where MCP answers a request in application/json or text/event-stream' }],
          isError: true,
        },
      },
      2: { jsonrpc: '2.0', result: { content: [{ type: 'text', text: 'fine' }] } },
    });
    await expect(recorded(plainKey, `${requestId}-1`)).resolves.toMatchObject({ model: 'mcp/plain/untyped', status: 'failed', http_status: 502, error_code: 'mcp_upstream_invalid_answer' });
  });
});

describe('a server that answers with more than the gateway takes in one answer (6 MB)', () => {
  it('fails that call as too large, in JSON (refused by its Content-Length) and on SSE (read no further than 6 MB), metered as too large', async () => {
    const tooLarge = (server: string) => ({ content: [{ type: 'text', text: `The MCP server "${server}" answered with more than the 6 MB the gateway accepts in one answer.` }], isError: true });
    const json = await postForJson(plainKey, [call(1, 'plain__huge'), call(2, 'plain__fine')]);
    const sse = await postForJson(hangupKey, [call(1, 'hangup__huge'), call(2, 'hangup__fine')]);

    expect(json.answers).toEqual({ 1: { jsonrpc: '2.0', result: tooLarge('plain') }, 2: { jsonrpc: '2.0', result: { content: [{ type: 'text', text: 'fine' }] } } });
    expect(sse.answers).toEqual({ 1: { jsonrpc: '2.0', result: tooLarge('hangup') }, 2: { jsonrpc: '2.0', result: { content: [{ type: 'text', text: 'fine' }] } } });
    await expect(recorded(plainKey, `${json.requestId}-1`)).resolves.toMatchObject({ model: 'mcp/plain/huge', status: 'failed', http_status: 502, error_code: 'mcp_upstream_answer_too_large' });
    await expect(recorded(hangupKey, `${sse.requestId}-1`)).resolves.toMatchObject({ model: 'mcp/hangup/huge', status: 'failed', http_status: 502, error_code: 'mcp_upstream_answer_too_large' });
  });
});
