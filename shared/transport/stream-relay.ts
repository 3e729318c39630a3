import { GatewayError } from '../core/errors.ts';
import { watchTimeLimits, type AnswerTimeLimits, type TimeLimitWatch } from './answer-time-limits.ts';
import { createSseDecoder, type StreamDecoder, type UpstreamEvent } from './stream-decoder.ts';

/** Decides, event by event, what the client sees of an upstream stream. */
export interface StreamEventHandler {
  /** Text to send for one whole upstream event ('' sends nothing). */
  onEvent(event: UpstreamEvent): Promise<string> | string;
  /** Text to append once the upstream has ended (not after a failure). */
  onEnd(): Promise<string> | string;
  /**
   * Once the upstream has ended, before onEnd: whether its stream stopped short of its protocol's end (no
   * finish, no end marker). A cut-off answer must not look complete: it fails like a stream that broke off.
   */
  cutOff?(): boolean;
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
  /**
   * Renders an error in the client protocol's stream format (after the first byte no status can change).
   * Awaited only when it returns a promise: a frame that shows the request's final usage (counted with the
   * tokenizer when the upstream reported none) is known only then.
   */
  errorFrame: (error: GatewayError) => string | Promise<string>;
  /** Runs once, before the client's stream closes: metering hands its record over here. */
  onSettled: (settlement: StreamSettlement) => Promise<void>;
  /**
   * While the upstream is silent this long (a reasoning model thinking), the client gets an SSE comment,
   * which every SSE client ignores, so that CloudFront and proxies do not close an idle connection.
   */
  heartbeatIntervalMs?: number;
  /**
   * The request's deadline and the longest silence between upstream chunks. Heartbeats hide a silence
   * from the client; these end it: the upstream is let go and the client gets an `upstream_timeout` frame.
   */
  timeLimits?: AnswerTimeLimits;
}

export const HEARTBEAT_FRAME = ': keep-alive\n\n';

const encoder = new TextEncoder();

/** `next` after `text`, kept apart from a last event that came without its blank line (they would merge). */
function appendFrames(text: string, next: string): string {
  return next && text && !/(\n\n|\r\n\r\n|\r\r)$/.test(text) ? `${text}\n\n${next}` : text + next;
}

/**
 * Relays an upstream stream as it arrives (pull-based, so backpressure reaches the upstream), whole event
 * by whole event, so a handler can meter, rewrite or translate single events while the others keep their
 * original bytes. If the upstream breaks off, or outlives the time limits, the client gets one error frame
 * and a clean end.
 */
export function relayStream(upstream: ReadableStream<Uint8Array>, options: StreamRelayOptions): ReadableStream<Uint8Array> {
  const reader = upstream.getReader();
  const decoder = options.decoder ?? createSseDecoder();
  let settled = false;
  let failing = false;
  // One timer for the whole stream, pushed back at every read: it enqueues a comment itself when the
  // upstream stays silent, so a read needs no race against it (a promise pair per event costs more).
  let heartbeatTimer: NodeJS.Timeout | undefined;
  // The time limits work the same way (answer-time-limits.ts), from the start of the stream.
  let timeLimits: TimeLimitWatch | undefined;
  let pulling = false;
  /** The time limit that ended the stream: the pull under way, or the next one, fails with it. */
  let expired: GatewayError | undefined;

  /** The next upstream read; while it is pending, a heartbeat goes out every interval of silence. */
  function nextRead(controller: ReadableStreamDefaultController<Uint8Array>): Promise<ReadableStreamReadResult<Uint8Array>> {
    const interval = options.heartbeatIntervalMs;
    if (interval && !settled) {
      if (heartbeatTimer) heartbeatTimer.refresh();
      // Unref'd: the upstream's socket keeps the process alive while the stream is open, not this timer.
      else heartbeatTimer = setTimeout(() => beat(controller), interval).unref();
    }
    timeLimits?.readStarted();
    return reader.read();
  }

  /**
   * Ends the stream on a time limit: the upstream is cancelled, which ends a pending read at once (as done),
   * and the pull waiting on it fails the stream. With no pull under way, the stream fails here: the request
   * is settled without waiting for the client to read again.
   */
  function expire(controller: ReadableStreamDefaultController<Uint8Array>, error: GatewayError): void {
    if (settled || expired) return;
    expired = error;
    reader.cancel(error).catch(() => undefined);
    if (!pulling) fail(controller, error).catch((cause: unknown) => controller.error(cause));
  }

  function watchLimits(controller: ReadableStreamDefaultController<Uint8Array>): void {
    if (options.timeLimits) timeLimits = watchTimeLimits(options.timeLimits, options.provider, (error) => expire(controller, error));
  }

  function stopTimers(): void {
    clearTimeout(heartbeatTimer);
    timeLimits?.stop();
  }

  function beat(controller: ReadableStreamDefaultController<Uint8Array>): void {
    if (settled || expired) return;
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
      const text = await handle(decoder.end());
      if (options.handler.cutOff?.()) {
        await fail(controller, cutOffError(options.provider), text);
        return true;
      }
      const frames = appendFrames(text, await options.handler.onEnd());
      if (frames) controller.enqueue(encoder.encode(frames));
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
    stopTimers();
    await options.onSettled(settlement);
  }

  /** Ends the stream with the error frame, after `sent`: the last events the upstream sent (a cut-off answer's). */
  async function fail(controller: ReadableStreamDefaultController<Uint8Array>, error: GatewayError, sent = ''): Promise<void> {
    // Once only: a time limit may fail the stream between pulls while a pull finds it expired.
    if (failing) return;
    failing = true;
    // No heartbeat or time limit may slip in while an asynchronous frame is written: the stream ends here.
    stopTimers();
    // An event cut off mid-way is dropped: its bytes would merge with the error frame into one broken event.
    decoder.discard();
    const frame = options.errorFrame(error);
    controller.enqueue(encoder.encode(appendFrames(sent, typeof frame === 'string' ? frame : await frame)));
    await settle({ outcome: 'failed', error });
    controller.close();
  }

  /** One pull: reads on until something was enqueued or the stream ended. */
  async function relayNext(controller: ReadableStreamDefaultController<Uint8Array>): Promise<void> {
    for (;;) {
      let read: ReadableStreamReadResult<Uint8Array>;
      try {
        read = await nextRead(controller);
      } catch (cause) {
        return fail(controller, expired ?? new GatewayError('upstream', `Provider "${options.provider}" broke off the stream.`, { code: 'upstream_stream_interrupted', cause }));
      } finally {
        timeLimits?.readEnded();
      }
      if (expired) return fail(controller, expired);
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
  }

  return new ReadableStream<Uint8Array>(
    {
      start: watchLimits,
      async pull(controller) {
        pulling = true;
        try {
          await relayNext(controller);
        } finally {
          pulling = false;
        }
      },
      async cancel(reason) {
        stopTimers();
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

/** An upstream that closed its stream cleanly before the answer's end: as much a failure as one that broke off. */
function cutOffError(provider: string): GatewayError {
  return new GatewayError('upstream', `Provider "${provider}" closed the stream before the answer was complete.`, { code: 'upstream_stream_interrupted' });
}
