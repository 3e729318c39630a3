import type { FetchLike } from '@modelcontextprotocol/sdk/shared/transport.js';
import { ErrorCode, McpError, type RequestId } from '@modelcontextprotocol/sdk/types.js';
import type { UpstreamFetch } from '../core/ports.ts';
import { MissingAnswerError, requireJsonAnswer } from './json-answer.ts';

/** Marks the error the bridge appends to an answer stream (below), apart from any error a server answers with. */
const UNANSWERED_MARK = 'model-gateway/answer-stream-ended';
const encoder = new TextEncoder();

function headerRecord(headers: RequestInit['headers']): Record<string, string> {
  return Object.fromEntries(new Headers(headers).entries());
}

/** The JSON-RPC id of the request a POST carries (the SDK's client sends one message a POST). */
function requestIdOf(body: RequestInit['body']): RequestId | undefined {
  if (typeof body !== 'string') return undefined;
  const message: unknown = JSON.parse(body);
  if (typeof message !== 'object' || message === null || !('method' in message) || !('id' in message)) return undefined;
  return typeof message.id === 'string' || typeof message.id === 'number' ? message.id : undefined;
}

/**
 * The SSE answer to request `id`, with one more event once it ends or breaks off: a JSON-RPC error for that
 * request. The SDK's transport reports a stream that ended without the answer to no one (and an event it
 * cannot read only to onerror), so the request would wait out its time-out; this error, read after all the
 * server sent, ends the wait at once. Once the answer came, the SDK drops it (a response to no request).
 */
function endingWithUnanswered(body: ReadableStream<Uint8Array>, id: RequestId): ReadableStream<Uint8Array> {
  const reader = body.getReader();
  const error = { code: ErrorCode.ConnectionClosed, message: 'the stream of its answer ended without the answer', data: { [UNANSWERED_MARK]: true } };
  // The blank lines first end any event the server left unfinished, so the error is an event of its own.
  const last = encoder.encode(`\n\nevent: message\ndata: ${JSON.stringify({ jsonrpc: '2.0', id, error })}\n\n`);
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        const read = await reader.read().catch(() => ({ done: true }) as const);
        if (!read.done) return controller.enqueue(read.value);
        controller.enqueue(last);
        controller.close();
      },
      cancel: (reason) => reader.cancel(reason),
    },
    { highWaterMark: 0 },
  );
}

/** Whether a JSON-RPC error's data is that of the error endingWithUnanswered appends. */
export function carriesUnansweredMark(data: unknown): boolean {
  return typeof data === 'object' && data !== null && UNANSWERED_MARK in data;
}

/** Whether a request failed because its answer stream ended without the answer (see endingWithUnanswered). */
export function isUnansweredStream(error: unknown): boolean {
  return error instanceof McpError && carriesUnansweredMark(error.data);
}

/**
 * The MCP SDK's client transport on the gateway's upstream transport (Node's HTTP client, which follows
 * no redirect, so headers never travel to a host other than the server's). A GET, the optional stream of
 * server-initiated messages, is answered 405 here without a connection: a bridge request is over once
 * its answers are in, so it never has anywhere to deliver such messages (nor resumes an answer stream by
 * GET). An SSE answer ends with an error for its request, so one that ends without the answer fails at once;
 * a JSON answer without the answer (requireJsonAnswer) and a 202 or 204 to a request fail at once too.
 */
export function mcpUpstreamFetch(fetch: UpstreamFetch): FetchLike {
  return async (url, init = {}) => {
    if ((init.method ?? 'GET').toUpperCase() === 'GET') return new Response(null, { status: 405, statusText: 'Method Not Allowed' });
    const response = await fetch(url.toString(), { ...init, headers: headerRecord(init.headers) });
    const id = response.ok ? requestIdOf(init.body) : undefined;
    if (id === undefined) return response;
    // 202 is a notification's answer: the SDK would take it as sent and wait out the time-out for the answer.
    if (response.status === 202 || response.status === 204) {
      await response.body?.cancel();
      throw new MissingAnswerError(`HTTP ${response.status} without the answer to the request`);
    }
    if (!response.body) return response;
    const mediaType = response.headers.get('content-type')?.split(';')[0]?.trim().toLowerCase();
    if (mediaType === 'application/json') return requireJsonAnswer(response, id);
    if (mediaType !== 'text/event-stream') return response;
    return new Response(endingWithUnanswered(response.body, id), { status: response.status, statusText: response.statusText, headers: response.headers });
  };
}
