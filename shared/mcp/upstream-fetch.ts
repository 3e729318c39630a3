import type { FetchLike } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { RequestId } from '@modelcontextprotocol/sdk/types.js';
import type { UpstreamFetch } from '../core/ports.ts';
import { MAX_REQUEST_BODY_BYTES } from '../pipeline/gateway-services.ts';
import { readTextPrefix } from '../transport/read-text-prefix.ts';
import { MAX_ERROR_BODY_BYTES } from '../transport/upstream-errors.ts';
import { AnswerTooLargeError, tooLargeMessage } from './answer-errors.ts';
import { answerStream } from './answer-stream.ts';
import { MissingAnswerError, requireJsonAnswer } from './json-answer.ts';

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
 * The most one upstream answer (the body answering one request, JSON or SSE) may hold: the 6 MB the
 * gateway takes in a request body. A tool's result goes back to a model in the client's next request,
 * which the gateway refuses over 6 MB anyway; and the bridge holds a result whole (text, parsed,
 * re-serialised), which the route group's memory is sized for at that body size (function-sizing.md).
 */
export const MAX_UPSTREAM_ANSWER_BYTES = MAX_REQUEST_BODY_BYTES;

/**
 * The MCP SDK's client transport on the gateway's upstream transport (Node's HTTP client, which follows
 * no redirect, so headers never travel to a host other than the server's). A GET, the optional stream of
 * server-initiated messages, is answered 405 here without a connection: a bridge request is over once
 * its answers are in, so it never has anywhere to deliver such messages (nor resumes an answer stream by
 * GET). An SSE answer ends with an error for its request, so one that ends without the answer fails at once;
 * a JSON answer without the answer (requireJsonAnswer), a 202 or 204 to a request, and an answer of any
 * other content type (or none: it is not sniffed) fail at once too, as not valid MCP. An answer larger than
 * `maxAnswerBytes` fails as too large, unread beyond that (at once when its Content-Length says so). An
 * error answer (HTTP 4xx, 5xx or a redirect) is passed on cut to its first 64 KB (errorAnswerStart).
 */
export function mcpUpstreamFetch(fetch: UpstreamFetch, maxAnswerBytes = MAX_UPSTREAM_ANSWER_BYTES): FetchLike {
  return async (url, init = {}) => {
    if ((init.method ?? 'GET').toUpperCase() === 'GET') return new Response(null, { status: 405, statusText: 'Method Not Allowed' });
    const response = await fetch(url.toString(), { ...init, headers: headerRecord(init.headers) });
    if (!response.ok && response.body) return errorAnswerStart(response);
    const id = response.ok ? requestIdOf(init.body) : undefined;
    if (id === undefined) return response;
    // 202 is a notification's answer: the SDK would take it as sent and wait out the time-out for the answer.
    if (response.status === 202 || response.status === 204 || !response.body) {
      await response.body?.cancel();
      throw new MissingAnswerError(`HTTP ${response.status} without the answer to the request`);
    }
    if (Number(response.headers.get('content-length')) > maxAnswerBytes) {
      await response.body.cancel();
      throw new AnswerTooLargeError(tooLargeMessage(maxAnswerBytes));
    }
    const mediaType = response.headers.get('content-type')?.split(';')[0]?.trim().toLowerCase();
    if (mediaType === 'application/json') return requireJsonAnswer(response, id, maxAnswerBytes);
    if (mediaType === 'text/event-stream') return new Response(answerStream(response.body, id, maxAnswerBytes), { status: response.status, statusText: response.statusText, headers: response.headers });
    // The SDK would call the server unreachable ("Unexpected content type: null"); it was reached, and said something that is not MCP.
    await response.body.cancel();
    throw new MissingAnswerError(`an answer ${mediaType ? `of type ${mediaType}` : 'with no content type'}, where MCP answers a request in application/json or text/event-stream`);
  };
}

/**
 * An error answer's first 64 KB, as the route groups keep of a provider's error; the rest is not read. The
 * SDK reads an error answer whole for its message, of which the bridge shows 500 characters: a server
 * answering HTTP 500 with a body of any size would otherwise be held in memory whole.
 */
async function errorAnswerStart(response: Response): Promise<Response> {
  const headers = new Headers(response.headers);
  headers.delete('content-length');
  const text = await readTextPrefix(response.body, MAX_ERROR_BODY_BYTES);
  return new Response(text, { status: response.status, statusText: response.statusText, headers });
}
