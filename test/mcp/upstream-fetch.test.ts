import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import { MissingAnswerError } from '../../shared/mcp/json-answer.ts';
import { isUnansweredStream, mcpUpstreamFetch } from '../../shared/mcp/upstream-fetch.ts';

const request = (message: unknown) => ({ method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(message) });
const call = { jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name: 'search' } };
const sse = (body: BodyInit) => async () => new Response(body, { headers: { 'content-type': 'text/event-stream' } });

/** The events of an SSE body, as their data lines. */
async function dataOf(response: Response): Promise<string[]> {
  return (await response.text()).split('\n').filter((line) => line.startsWith('data: ')).map((line) => line.slice(6));
}

describe('mcpUpstreamFetch', () => {
  it('answers a GET (the server-initiated stream) 405 without a connection', async () => {
    const response = await mcpUpstreamFetch(() => Promise.reject(new Error('no connection expected')))('https://mcp.example.com/mcp', { method: 'GET' });
    expect(response.status).toBe(405);
  });

  it("ends a request's SSE answer with a JSON-RPC error for that request, after everything the server sent", async () => {
    const response = await mcpUpstreamFetch(sse(': hi\n\nevent: message\ndata: {"jsonrpc":"2.0","id":7,"result":{"content":[]}}\n\n'))('https://mcp.example.com/mcp', request(call));

    const data = await dataOf(response);
    expect(data.map((line) => JSON.parse(line) as unknown)).toEqual([
      { jsonrpc: '2.0', id: 7, result: { content: [] } },
      { jsonrpc: '2.0', id: 7, error: { code: ErrorCode.ConnectionClosed, message: 'the stream of its answer ended without the answer', data: { 'model-gateway/answer-stream-ended': true } } },
    ]);
  });

  it('ends a stream that breaks off, or stops mid-event, with the error as an event of its own', async () => {
    const chunks = ['event: message\ndata: {"jsonrpc":'];
    const broken = new ReadableStream<Uint8Array>({
      pull(controller) {
        const chunk = chunks.shift();
        if (chunk === undefined) controller.error(new TypeError('terminated'));
        else controller.enqueue(new TextEncoder().encode(chunk));
      },
    });
    const response = await mcpUpstreamFetch(sse(broken))('https://mcp.example.com/mcp', request(call));

    expect(await dataOf(response)).toEqual(['{"jsonrpc":', expect.stringContaining('"model-gateway/answer-stream-ended":true')]);
  });

  it('passes a JSON answer, and the answer to a notification, as they are', async () => {
    const json = await mcpUpstreamFetch(async () => Response.json({ jsonrpc: '2.0', id: 7, result: {} }))('https://mcp.example.com/mcp', request(call));
    expect(await json.json()).toEqual({ jsonrpc: '2.0', id: 7, result: {} });
    const notified = await mcpUpstreamFetch(sse(': hi\n\n'))('https://mcp.example.com/mcp', request({ jsonrpc: '2.0', method: 'notifications/initialized' }));
    expect(await notified.text()).toBe(': hi\n\n');
  });
});

describe('mcpUpstreamFetch with a JSON answer', () => {
  const json = (body: string) => async () => new Response(body, { headers: { 'content-type': 'application/json; charset=utf-8' } });

  it("fails at once when the body holds no answer to the request: only a notification, or another request's answer", async () => {
    const notification = JSON.stringify({ jsonrpc: '2.0', method: 'notifications/message', params: { level: 'info', data: 'working' } });
    await expect(mcpUpstreamFetch(json(notification))('https://mcp.example.com/mcp', request(call))).rejects.toThrow(MissingAnswerError);
    const misaddressed = JSON.stringify([{ jsonrpc: '2.0', id: 8, result: {} }]);
    await expect(mcpUpstreamFetch(json(misaddressed))('https://mcp.example.com/mcp', request(call))).rejects.toThrow('a JSON body without the answer to the request');
  });

  it('passes on as it came a body that holds the answer (an error too, an id in a string as the SDK matches it, in a batch), or is not JSON', async () => {
    for (const body of ['{"jsonrpc":"2.0","id":7,"error":{"code":-32000,"message":"busy"}}', '{"jsonrpc":"2.0","id":"7","result":{}}', '[{"jsonrpc":"2.0","method":"notifications/progress"},{"jsonrpc":"2.0","id":7,"result":{}}]', '{not json']) {
      const response = await mcpUpstreamFetch(json(body))('https://mcp.example.com/mcp', request(call));
      expect(await response.text()).toBe(body);
    }
  });
});

describe('mcpUpstreamFetch with no body', () => {
  it("fails a request answered 202 Accepted (a notification's answer) or 204 at once, and passes a notification's 202 on", async () => {
    for (const status of [202, 204]) {
      const empty = async () => new Response(null, { status });
      await expect(mcpUpstreamFetch(empty)('https://mcp.example.com/mcp', request(call))).rejects.toThrow(new MissingAnswerError(`HTTP ${status} without the answer to the request`));
    }
    const accepted = await mcpUpstreamFetch(async () => new Response(null, { status: 202 }))('https://mcp.example.com/mcp', request({ jsonrpc: '2.0', method: 'notifications/initialized' }));
    expect(accepted.status).toBe(202);
  });
});

describe('isUnansweredStream', () => {
  it("tells the bridge's error from the same code a server answers with", () => {
    expect(isUnansweredStream(new McpError(ErrorCode.ConnectionClosed, 'x', { 'model-gateway/answer-stream-ended': true }))).toBe(true);
    expect(isUnansweredStream(new McpError(ErrorCode.ConnectionClosed, 'x'))).toBe(false);
  });
});
