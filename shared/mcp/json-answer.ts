import type { RequestId } from '@modelcontextprotocol/sdk/types.js';
import { AnswerTooLargeError, connectionLostMessage, CutOffAnswerError, tooLargeMessage } from './answer-errors.ts';

/** A server's reply that holds no answer to the request it replies to; like a body that is not JSON, not valid MCP. */
export class MissingAnswerError extends Error {
  override readonly name = 'MissingAnswerError';
}

/** Whether a body is JSON holding no response to request `id` (matched as the SDK's client matches them, by Number). */
function isJsonWithoutAnswer(text: string, id: RequestId): boolean {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return false;
  }
  const messages: unknown[] = Array.isArray(body) ? body : [body];
  return !messages.some(
    (message) => typeof message === 'object' && message !== null && 'id' in message && Number(message.id) === Number(id) && ('result' in message || 'error' in message),
  );
}

/** The body as text, read no further than `maxBytes`; a body that breaks off is cut off, not a shorter answer. */
async function readAtMost(body: ReadableStream<Uint8Array> | null, maxBytes: number): Promise<string> {
  if (!body) return '';
  const reader = body.getReader();
  const chunks: Uint8Array[] = [];
  let received = 0;
  for (;;) {
    let read: ReadableStreamReadResult<Uint8Array>;
    try {
      read = await reader.read();
    } catch (error) {
      throw new CutOffAnswerError(connectionLostMessage(error));
    }
    if (read.done) return Buffer.concat(chunks).toString('utf8');
    received += read.value.byteLength;
    if (received > maxBytes) {
      await reader.cancel().catch(() => undefined);
      throw new AnswerTooLargeError(tooLargeMessage(maxBytes));
    }
    chunks.push(read.value);
  }
}

/**
 * A server's plain JSON reply to request `id`, passed on as it came when it holds the answer. One that does
 * not (only a notification, the answer to another request) the SDK's transport hands on and forgets, and
 * the request would wait out its time-out; it fails at once instead, as not valid MCP: a JSON reply to a
 * request is that request's answer. A body that is not JSON is passed on: the SDK refuses it itself. One
 * over `maxBytes` is not read further (AnswerTooLargeError).
 */
export async function requireJsonAnswer(response: Response, id: RequestId, maxBytes: number): Promise<Response> {
  const text = await readAtMost(response.body, maxBytes);
  if (isJsonWithoutAnswer(text, id)) throw new MissingAnswerError('a JSON body without the answer to the request');
  return new Response(text, { status: response.status, statusText: response.statusText, headers: response.headers });
}
