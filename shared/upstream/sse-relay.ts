import { GatewayError } from '../core/errors.ts';
import { SseEventSplitter } from '../http/sse-event-splitter.ts';

/** Decides, event by event, what the client sees of an upstream SSE stream. */
export interface SseEventHandler {
  /** Text to forward for one whole event ('' drops it). */
  onEvent(event: string): Promise<string> | string;
  /** Text to append once the upstream has ended (not after a failure). */
  onEnd(): Promise<string> | string;
}

export type StreamSettlement =
  | { outcome: 'completed' }
  | { outcome: 'failed'; error: GatewayError }
  | { outcome: 'cancelled' };

export interface SseRelayOptions {
  provider: string;
  handler: SseEventHandler;
  /** Renders an error in the client protocol's stream format (after the first byte no status can change). */
  errorFrame: (error: GatewayError) => string;
  /** Runs once, before the client's stream closes: metering hands its record over here. */
  onSettled: (settlement: StreamSettlement) => Promise<void>;
}

const encoder = new TextEncoder();

/**
 * Relays an upstream SSE stream as it arrives (pull-based, so backpressure reaches the upstream), whole
 * event by whole event, so a handler can meter or rewrite single events while all others keep their
 * original bytes. If the upstream breaks off, the client gets one error frame and a clean end.
 */
export function relaySseStream(upstream: ReadableStream<Uint8Array>, options: SseRelayOptions): ReadableStream<Uint8Array> {
  const reader = upstream.getReader();
  const decoder = new TextDecoder();
  const splitter = new SseEventSplitter();
  let settled = false;

  async function settle(settlement: StreamSettlement): Promise<void> {
    if (settled) return;
    settled = true;
    await options.onSettled(settlement);
  }

  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        for (;;) {
          let read: ReadableStreamReadResult<Uint8Array>;
          try {
            read = await reader.read();
          } catch (cause) {
            const error = new GatewayError('upstream', `Provider "${options.provider}" broke off the stream.`, {
              code: 'upstream_stream_interrupted',
              cause,
            });
            controller.enqueue(encoder.encode(splitter.flush() + options.errorFrame(error)));
            await settle({ outcome: 'failed', error });
            controller.close();
            return;
          }
          if (read.done) {
            const rest = splitter.push(decoder.decode());
            let text = '';
            for (const event of rest) text += await options.handler.onEvent(event);
            text += splitter.flush() + (await options.handler.onEnd());
            if (text) controller.enqueue(encoder.encode(text));
            await settle({ outcome: 'completed' });
            controller.close();
            return;
          }
          let text = '';
          for (const event of splitter.push(decoder.decode(read.value, { stream: true }))) {
            text += await options.handler.onEvent(event);
          }
          if (text) {
            controller.enqueue(encoder.encode(text));
            return;
          }
        }
      },
      async cancel(reason) {
        await reader.cancel(reason);
        await settle({ outcome: 'cancelled' });
      },
    },
    { highWaterMark: 0 },
  );
}
