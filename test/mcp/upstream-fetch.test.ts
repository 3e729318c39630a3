import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import { MissingAnswerError } from '../../shared/mcp/json-answer.ts';
import { AnswerTooLargeError, CutOffAnswerError } from '../../shared/mcp/answer-errors.ts';
import { answerStreamError, isUnansweredStream } from '../../shared/mcp/answer-stream.ts';
import { MAX_UPSTREAM_ANSWER_BYTES, mcpUpstreamFetch } from '../../shared/mcp/upstream-fetch.ts';
import { MAX_ERROR_BODY_BYTES } from '../../shared/transport/upstream-errors.ts';

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
      { jsonrpc: '2.0', id: 7, error: { code: ErrorCode.ConnectionClosed, message: 'the stream of its answer ended without the answer', data: { 'model-gateway/answer-stream-ended': 'unanswered' } } },
    ]);
  });

  /** A stream that gives its chunks one by one, then ends, or fails as a lost connection does. */
  function chunked(chunks: (string | Uint8Array)[], then: 'end' | 'drop'): ReadableStream<Uint8Array> {
    return new ReadableStream<Uint8Array>({
      pull(controller) {
        const chunk = chunks.shift();
        if (chunk !== undefined) controller.enqueue(typeof chunk === 'string' ? new TextEncoder().encode(chunk) : chunk);
        else if (then === 'end') controller.close();
        else controller.error(new TypeError('terminated', { cause: new Error('other side closed') }));
      },
    });
  }

  it('never passes on half an event when the connection is lost mid-event, and ends the stream with a cut-off error', async () => {
    const response = await mcpUpstreamFetch(sse(chunked([': hi\n\nevent: message\ndata: {"jsonrpc":"2.0","id":7,"res'], 'drop')))('https://mcp.example.com/mcp', request(call));

    expect((await dataOf(response)).map((line) => JSON.parse(line) as unknown)).toEqual([
      { jsonrpc: '2.0', id: 7, error: { code: ErrorCode.ConnectionClosed, message: 'the connection was lost (terminated: other side closed)', data: { 'model-gateway/answer-stream-ended': 'cut-off' } } },
    ]);
  });

  it('passes on each event once complete, even split across chunks, and calls a stream that ends mid-event cut off', async () => {
    const chunks = ['event: message\ndata: {"jsonrpc":"2.0",', '"method":"notifications/progress"}\r\n\r', '\nevent: message\ndata: {"jsonrpc":'];
    const response = await mcpUpstreamFetch(sse(chunked(chunks, 'end')))('https://mcp.example.com/mcp', request(call));

    const data = await dataOf(response);
    expect(data.map((line) => JSON.parse(line) as unknown)).toEqual([
      { jsonrpc: '2.0', method: 'notifications/progress' },
      { jsonrpc: '2.0', id: 7, error: expect.objectContaining({ message: 'its event stream ended in the middle of an event', data: { 'model-gateway/answer-stream-ended': 'cut-off' } }) },
    ]);
  });

  it('passes on an event whole when a character of it is split between chunks', async () => {
    const event = new TextEncoder().encode('event: message\ndata: {"jsonrpc":"2.0","id":7,"result":{"text":"é"}}\n\n');
    const cut = event.indexOf(0xc3) + 1;
    const response = await mcpUpstreamFetch(sse(chunked([event.subarray(0, cut), event.subarray(cut)], 'end')))('https://mcp.example.com/mcp', request(call));

    expect(((await dataOf(response)).map((line) => JSON.parse(line) as unknown))[0]).toEqual({ jsonrpc: '2.0', id: 7, result: { text: 'é' } });
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

describe('mcpUpstreamFetch with no content type', () => {
  it('fails a request answered with no content type, or one that is neither JSON nor SSE, at once as not valid MCP, even when the body is its answer in JSON', async () => {
    const answer = new TextEncoder().encode(JSON.stringify({ jsonrpc: '2.0', id: 7, result: {} }));
    const untyped = async () => new Response(answer);
    await expect(mcpUpstreamFetch(untyped)('https://mcp.example.com/mcp', request(call))).rejects.toThrow(
      new MissingAnswerError('an answer with no content type, where MCP answers a request in application/json or text/event-stream'),
    );
    const html = async () => new Response('<h1>Welcome</h1>', { headers: { 'content-type': 'text/html; charset=utf-8' } });
    await expect(mcpUpstreamFetch(html)('https://mcp.example.com/mcp', request(call))).rejects.toThrow('an answer of type text/html, where MCP');
  });
});

describe('mcpUpstreamFetch with an answer larger than it takes', () => {
  const tooLarge = new AnswerTooLargeError('more than the 64 bytes the gateway accepts in one answer');
  /** A body of the given chunks, then `rest` chunks of 32 bytes, counting how many were read. */
  function body(chunks: string[], rest: number) {
    const read = { chunks: 0 };
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        read.chunks += 1;
        const chunk = chunks.shift() ?? (read.chunks <= chunks.length + rest ? 'x'.repeat(32) : undefined);
        if (chunk === undefined) controller.close();
        else controller.enqueue(new TextEncoder().encode(chunk));
      },
    });
    return { stream, read };
  }

  it('takes 6 MB, as a request body', () => {
    expect(MAX_UPSTREAM_ANSWER_BYTES).toBe(6 * 1024 * 1024);
  });

  it('fails a JSON answer at once once it holds more, reading no further', async () => {
    const { stream, read } = body(['{"jsonrpc":"2.0","id":7,"result":{"content":[{"type":"text","text":"'], 1000);
    const answer = async () => new Response(stream, { headers: { 'content-type': 'application/json' } });
    await expect(mcpUpstreamFetch(answer, 64)('https://mcp.example.com/mcp', request(call))).rejects.toThrow(tooLarge);
    expect(read.chunks).toBeLessThan(5);
  });

  it('fails an answer whose Content-Length is larger without reading it', async () => {
    const unread = new ReadableStream<Uint8Array>({ pull: () => Promise.reject(new Error('read')) });
    const answer = async () => new Response(unread, { headers: { 'content-type': 'application/json', 'content-length': '65' } });
    await expect(mcpUpstreamFetch(answer, 64)('https://mcp.example.com/mcp', request(call))).rejects.toThrow(tooLarge);
  });

  it('ends an SSE answer that holds more with a too-large error, after the events that came before', async () => {
    const { stream, read } = body([': hi\n\n', 'event: message\ndata: {"jsonrpc":"2.0","id":7,"result":{"content":[{"type":"text","text":"'], 1000);
    const response = await mcpUpstreamFetch(sse(stream), 64)('https://mcp.example.com/mcp', request(call));

    expect((await response.text()).split('\n\n').filter(Boolean)).toEqual([
      ': hi',
      expect.stringMatching(/^event: message\ndata: .*"message":"more than the 64 bytes the gateway accepts in one answer","data":\{"model-gateway\/answer-stream-ended":"too-large"\}/),
    ]);
    expect(read.chunks).toBeLessThan(6);
  });

  it('calls a JSON answer that breaks off cut off, not a shorter answer', async () => {
    const dropped = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(new TextEncoder().encode('{"jsonrpc":"2.0","id":7,"res'));
        controller.error(new TypeError('terminated'));
      },
    });
    const answer = async () => new Response(dropped, { headers: { 'content-type': 'application/json' } });
    await expect(mcpUpstreamFetch(answer)('https://mcp.example.com/mcp', request(call))).rejects.toThrow(new CutOffAnswerError('the connection was lost (terminated)'));
  });
});

describe('mcpUpstreamFetch with an error answer', () => {
  /** A body of 16 KB chunks, 1 MB in all, counting the bytes read from it. */
  function large() {
    const read = { bytes: 0, cancelled: false };
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (read.bytes >= 1024 * 1024) return controller.close();
        const chunk = new TextEncoder().encode('<p>Internal Server Error</p>'.padEnd(16 * 1024, '.'));
        read.bytes += chunk.byteLength;
        controller.enqueue(chunk);
      },
      cancel() {
        read.cancelled = true;
      },
    });
    return { stream, read };
  }

  it("passes on an HTTP error answer (whose body the SDK reads whole for its message) cut to its first 64 KB, reading no further", async () => {
    const { stream, read } = large();
    const answer = async () => new Response(stream, { status: 500, statusText: 'Internal Server Error', headers: { 'content-type': 'text/html' } });
    const response = await mcpUpstreamFetch(answer)('https://mcp.example.com/mcp', request(call));

    expect(response.status).toBe(500);
    const text = await response.text();
    expect(text.startsWith('<p>Internal Server Error</p>')).toBe(true);
    expect(text.length).toBe(MAX_ERROR_BODY_BYTES);
    expect(read.cancelled).toBe(true);
    expect(read.bytes).toBeLessThanOrEqual(MAX_ERROR_BODY_BYTES + 2 * 16 * 1024);
  });

  it('passes on a short error answer whole', async () => {
    const answer = async () => Response.json({ jsonrpc: '2.0', id: null, error: { code: -32600, message: 'Bad Request' } }, { status: 400 });
    const response = await mcpUpstreamFetch(answer)('https://mcp.example.com/mcp', request(call));
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({ jsonrpc: '2.0', id: null, error: { code: -32600, message: 'Bad Request' } });
  });
});

describe('isUnansweredStream', () => {
  it("tells the bridge's error from the same code a server answers with", () => {
    expect(isUnansweredStream(new McpError(ErrorCode.ConnectionClosed, 'x', { 'model-gateway/answer-stream-ended': 'unanswered' }))).toBe(true);
    expect(isUnansweredStream(new McpError(ErrorCode.ConnectionClosed, 'x', { 'model-gateway/answer-stream-ended': 'cut-off' }))).toBe(false);
    expect(isUnansweredStream(new McpError(ErrorCode.ConnectionClosed, 'x'))).toBe(false);
  });
});

describe('answerStreamError', () => {
  it("turns the bridge's cut-off and too-large errors into CutOffAnswerError and AnswerTooLargeError and leaves any other error as it is", () => {
    const cut = answerStreamError(new McpError(ErrorCode.ConnectionClosed, 'the connection was lost (terminated)', { 'model-gateway/answer-stream-ended': 'cut-off' }));
    expect(cut).toEqual(new CutOffAnswerError('the connection was lost (terminated)'));
    const large = answerStreamError(new McpError(ErrorCode.ConnectionClosed, 'more than the 6 MB the gateway accepts in one answer', { 'model-gateway/answer-stream-ended': 'too-large' }));
    expect(large).toEqual(new AnswerTooLargeError('more than the 6 MB the gateway accepts in one answer'));
    const server = new McpError(ErrorCode.ConnectionClosed, 'x', { reason: 'busy' });
    expect(answerStreamError(server)).toBe(server);
  });
});
