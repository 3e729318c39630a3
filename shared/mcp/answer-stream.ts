import { ErrorCode, McpError, type RequestId } from '@modelcontextprotocol/sdk/types.js';
import { AnswerTooLargeError, connectionLostMessage, CutOffAnswerError, tooLargeMessage } from './answer-errors.ts';
import { SseEventSplitter } from '../http/sse-event-splitter.ts';

/** Marks the error the bridge appends to an answer stream (below), apart from any error a server answers with; its value says how the stream ended. */
const ENDING_MARK = 'model-gateway/answer-stream-ended';
const encoder = new TextEncoder();

type Ending = 'unanswered' | 'cut-off' | 'too-large';

function endingEvent(id: RequestId, ending: Ending, message: string): Uint8Array {
  const error = { code: ErrorCode.ConnectionClosed, message, data: { [ENDING_MARK]: ending } };
  return encoder.encode(`event: message\ndata: ${JSON.stringify({ jsonrpc: '2.0', id, error })}\n\n`);
}

/**
 * The SSE answer to request `id`, passed on event by event, with one more event once it ends or breaks
 * off: a JSON-RPC error for that request. The SDK's transport reports a stream that ended without the
 * answer to no one (and an event it cannot read only to onerror), so the request would wait out its
 * time-out; this error, read after all the server sent, ends the wait at once. Once the answer came, the
 * SDK drops it (a response to no request). An event is passed on only once it is complete: one the server
 * left half-written when its connection was lost, or its stream ended, is dropped (SSE dispatches no
 * event cut off by the end of the stream), and the request fails as cut off, never as what half an event
 * would parse as. A stream that holds more than `maxBytes` in all is let go there, and the request fails
 * as too large: the bridge holds at most that much of it.
 */
export function answerStream(body: ReadableStream<Uint8Array>, id: RequestId, maxBytes: number): ReadableStream<Uint8Array> {
  const reader = body.getReader();
  // Decoded as a stream, so a character split between chunks stays whole; events split as the relay splits them.
  const decoder = new TextDecoder();
  const events = new SseEventSplitter();
  let received = 0;
  const finish = (controller: ReadableStreamDefaultController<Uint8Array>, ending: Ending, message: string) => {
    controller.enqueue(endingEvent(id, ending, message));
    controller.close();
  };
  return new ReadableStream<Uint8Array>(
    {
      // Reads until there is something to pass on: a pull that enqueues nothing is not called again.
      async pull(controller) {
        for (;;) {
          let read: ReadableStreamReadResult<Uint8Array>;
          try {
            read = await reader.read();
          } catch (error) {
            return finish(controller, 'cut-off', connectionLostMessage(error));
          }
          if (read.done) {
            if (`${events.flush()}${decoder.decode()}`.trim() !== '') return finish(controller, 'cut-off', 'its event stream ended in the middle of an event');
            return finish(controller, 'unanswered', 'the stream of its answer ended without the answer');
          }
          received += read.value.byteLength;
          if (received > maxBytes) {
            await reader.cancel().catch(() => undefined);
            return finish(controller, 'too-large', tooLargeMessage(maxBytes));
          }
          const complete = events.push(decoder.decode(read.value, { stream: true }));
          if (complete.length === 0) continue;
          controller.enqueue(encoder.encode(complete.join('')));
          return;
        }
      },
      cancel: (reason) => reader.cancel(reason),
    },
    { highWaterMark: 0 },
  );
}

function endingOf(data: unknown): unknown {
  return typeof data === 'object' && data !== null && ENDING_MARK in data ? data[ENDING_MARK] : undefined;
}

/** Whether a JSON-RPC error's data is that of the error answerStream appends. */
export function carriesUnansweredMark(data: unknown): boolean {
  return endingOf(data) !== undefined;
}

/** Whether a request failed because its answer stream ended without the answer, complete events only (see answerStream). */
export function isUnansweredStream(error: unknown): boolean {
  return error instanceof McpError && endingOf(error.data) === 'unanswered';
}

/** The bridge's own error for a request whose answer stream was cut off or too large (see answerStream), or the error as it is. */
export function answerStreamError(error: unknown): unknown {
  if (!(error instanceof McpError)) return error;
  const message = error.message.replace(/^MCP error -?\d+: /, '');
  const ending = endingOf(error.data);
  if (ending === 'cut-off') return new CutOffAnswerError(message);
  if (ending === 'too-large') return new AnswerTooLargeError(message);
  return error;
}
