import { GatewayError } from '../core/errors.ts';
import { createSseDecoder, type StreamDecoder, type UpstreamEvent } from './stream-decoder.ts';

/** Decides, event by event, what the client sees of an upstream stream. */
export interface StreamEventHandler {
  /** Text to send for one whole upstream event ('' sends nothing). */
  onEvent(event: UpstreamEvent): Promise<string> | string;
  /** Text to append once the upstream has ended (not after a failure). */
  onEnd(): Promise<string> | string;
}

export type StreamSettlement =
  | { outcome: 'completed' }
  | { outcome: 'failed'; error: GatewayError }
  | { outcome: 'cancelled' };

export interface StreamRelayOptions {
  provider: string;
  handler: StreamEventHandler;
  /** The upstream's framing; SSE unless given. */
  decoder?: StreamDecoder;
  /** Renders an error in the client protocol's stream format (after the first byte no status can change). */
  errorFrame: (error: GatewayError) => string;
  /** Runs once, before the client's stream closes: metering hands its record over here. */
  onSettled: (settlement: StreamSettlement) => Promise<void>;
  /**
   * While the upstream is silent this long (a reasoning model thinking), the client gets an SSE comment,
   * which every SSE client ignores, so that CloudFront and proxies do not close an idle connection.
   */
  heartbeatIntervalMs?: number;
}

export const HEARTBEAT_FRAME = ': keep-alive\n\n';

const encoder = new TextEncoder();

/**
 * Relays an upstream stream as it arrives (pull-based, so backpressure reaches the upstream), whole event
 * by whole event, so a handler can meter, rewrite or translate single events while the others keep their
 * original bytes. If the upstream breaks off, the client gets one error frame and a clean end.
 */
export function relayStream(upstream: ReadableStream<Uint8Array>, options: StreamRelayOptions): ReadableStream<Uint8Array> {
  const reader = upstream.getReader();
  const decoder = options.decoder ?? createSseDecoder();
  let settled = false;
  // One timer for the whole stream, pushed back at every read: it enqueues a comment itself when the
  // upstream stays silent, so a read needs no race against it (a promise pair per event costs more).
  let heartbeatTimer: NodeJS.Timeout | undefined;

  /** The next upstream read; while it is pending, a heartbeat goes out every interval of silence. */
  function nextRead(controller: ReadableStreamDefaultController<Uint8Array>): Promise<ReadableStreamReadResult<Uint8Array>> {
    const interval = options.heartbeatIntervalMs;
    if (interval && !settled) {
      if (heartbeatTimer) heartbeatTimer.refresh();
      // Unref'd: the upstream's socket keeps the process alive while the stream is open, not this timer.
      else heartbeatTimer = setTimeout(() => beat(controller), interval).unref();
    }
    return reader.read();
  }

  function beat(controller: ReadableStreamDefaultController<Uint8Array>): void {
    if (settled) return;
    try {
      controller.enqueue(encoder.encode(HEARTBEAT_FRAME));
    } catch {
      return; // the client's stream is already gone (cancelled): nothing to keep alive
    }
    heartbeatTimer?.refresh();
  }

  async function handle(events: UpstreamEvent[]): Promise<string> {
    let text = '';
    for (const event of events) text += await options.handler.onEvent(event);
    return text;
  }

  /**
   * Hands one upstream read to the handler and the client. True when this pull is done (something was
   * enqueued, or the stream ended); false to read on (the bytes held no whole event yet).
   */
  async function forward(read: ReadableStreamReadResult<Uint8Array>, controller: ReadableStreamDefaultController<Uint8Array>): Promise<boolean> {
    if (read.done) {
      let text = await handle(decoder.end());
      const ending = await options.handler.onEnd();
      // Appended text must not run into a last event that came without its blank line.
      if (ending && text && !/(\n\n|\r\n\r\n|\r\r)$/.test(text)) text += '\n\n';
      text += ending;
      if (text) controller.enqueue(encoder.encode(text));
      await settle({ outcome: 'completed' });
      controller.close();
      return true;
    }
    const text = await handle(decoder.push(read.value));
    if (!text) return false;
    controller.enqueue(encoder.encode(text));
    return true;
  }

  async function settle(settlement: StreamSettlement): Promise<void> {
    if (settled) return;
    settled = true;
    clearTimeout(heartbeatTimer);
    await options.onSettled(settlement);
  }

  async function fail(controller: ReadableStreamDefaultController<Uint8Array>, error: GatewayError): Promise<void> {
    // An event cut off mid-way is dropped: its bytes would merge with the error frame into one broken event.
    decoder.discard();
    controller.enqueue(encoder.encode(options.errorFrame(error)));
    await settle({ outcome: 'failed', error });
    controller.close();
  }

  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        for (;;) {
          let read: ReadableStreamReadResult<Uint8Array>;
          try {
            read = await nextRead(controller);
          } catch (cause) {
            return fail(controller, new GatewayError('upstream', `Provider "${options.provider}" broke off the stream.`, { code: 'upstream_stream_interrupted', cause }));
          }
          try {
            if (await forward(read, controller)) return;
          } catch (cause) {
            // A handler that cannot process an event must not leave the request unmetered or the client hanging.
            // A decoder's GatewayError (an upstream's broken framing) keeps its words.
            const error = cause instanceof GatewayError ? cause : new GatewayError('internal', 'The gateway failed to relay the stream.', { code: 'stream_relay_failed', cause });
            await fail(controller, error);
            await reader.cancel(cause).catch(() => undefined);
            return;
          }
        }
      },
      async cancel(reason) {
        clearTimeout(heartbeatTimer);
        try {
          await reader.cancel(reason);
        } finally {
          await settle({ outcome: 'cancelled' });
        }
      },
    },
    { highWaterMark: 0 },
  );
}
