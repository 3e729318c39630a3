import { Readable } from 'node:stream';
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

/** `next` after `text`, kept apart from a last event that came without its blank line (they would merge). */
function appendFrames(text: string, next: string): string {
  return next && text && !/(\n\n|\r\n\r\n|\r\r)$/.test(text) ? `${text}\n\n${next}` : text + next;
}

/**
 * Relays an upstream stream as it arrives, whole event by whole event, so a handler can meter, rewrite or
 * translate single events while the others keep their original bytes. If the upstream breaks off, or
 * outlives the time limits, the client gets one error frame and a clean end.
 *
 * Node streams on both sides, no web stream between: the upstream's message is read as it comes, and the
 * relay is what the function-URL response stream is piped from (a web stream on either side cost ~15% of a
 * relayed stream's CPU; docs/performance.md). The upstream is paused while the client's side is full, so
 * backpressure reaches it, and while an event's handling waits on a promise, so events stay in order.
 */
export function relayStream(upstream: Readable, options: StreamRelayOptions): Readable {
  const decoder = options.decoder ?? createSseDecoder();
  let started = false;
  /** The upstream ended, broke off or was let go: nothing more comes from it. */
  let upstreamDone = false;
  /** An event's handling waits on a promise: the upstream is paused until it is done. */
  let handling = false;
  /** The upstream ended while a handling was under way: the end is handled after it. */
  let endPending = false;
  /** The client's side is full: the upstream is paused until the client reads again. */
  let clientFull = false;
  let settled = false;
  let failing = false;
  // One timer for the whole stream, pushed back whenever the relay waits on the upstream again: it sends a
  // comment itself when the upstream stays silent (a race per chunk would cost more).
  let heartbeatTimer: NodeJS.Timeout | undefined;
  // The time limits work the same way (answer-time-limits.ts), from the start of the stream.
  let timeLimits: TimeLimitWatch | undefined;
  /** A failure that came while an event's handling was under way: the stream ends with it once that is done. */
  let pendingFailure: GatewayError | undefined;

  // No buffer of its own (as a pull-based stream): an event is read from the upstream as the client takes one.
  const client = new Readable({
    highWaterMark: 0,
    read() {
      clientFull = false;
      if (!started) return start();
      if (!handling && !upstreamDone && upstream.isPaused()) waitForUpstream();
    },
    destroy(error, callback) {
      // The client's side was destroyed (a client gone, a pipe failing): the upstream is let go.
      stopTimers();
      letUpstreamGo();
      settle({ outcome: 'cancelled' }).then(() => callback(error), callback);
    },
  });

  /** At the client's first read: the upstream is read from here on (its bytes wait in its buffer until then). */
  function start(): void {
    started = true;
    if (options.timeLimits) timeLimits = watchTimeLimits(options.timeLimits, options.provider, expire);
    upstream.on('data', onChunk);
    upstream.once('end', onEnd);
    // Not `once`: a second error (a socket failing after its message) must not go unhandled.
    upstream.on('error', onBroken);
    upstream.once('close', () => onBroken(new Error('The upstream closed its stream before its end.')));
    waitForUpstream();
  }

  /** The relay waits on the upstream: heartbeats and the idle limit count from now. */
  function waitForUpstream(): void {
    const interval = options.heartbeatIntervalMs;
    if (interval && !settled) {
      if (heartbeatTimer) heartbeatTimer.refresh();
      // Unref'd: the upstream's socket keeps the process alive while the stream is open, not this timer.
      else heartbeatTimer = setTimeout(beat, interval).unref();
    }
    timeLimits?.readStarted();
    upstream.resume();
  }

  /** The client's side is full, or a handling is under way: a client reading slowly is no silent upstream. */
  function holdUpstream(): void {
    upstream.pause();
    timeLimits?.readEnded();
  }

  function letUpstreamGo(): void {
    if (upstreamDone) return;
    upstreamDone = true;
    upstream.destroy();
  }

  function stopTimers(): void {
    clearTimeout(heartbeatTimer);
    timeLimits?.stop();
  }

  function beat(): void {
    if (settled || failing || client.destroyed) return;
    client.push(HEARTBEAT_FRAME);
    heartbeatTimer?.refresh();
  }

  /** A time limit passed: the upstream is let go, and the stream ends with the limit's error. */
  function expire(error: GatewayError): void {
    if (settled || failing) return;
    letUpstreamGo();
    endWith(error);
  }

  /** Ends the stream with `error` now, or once the handling under way is done. */
  function endWith(error: GatewayError): void {
    if (handling) pendingFailure ??= error;
    else void fail(error);
  }

  /** The handler's text for the events: at once when every event's is, else a promise (kept in order). */
  function handle(events: UpstreamEvent[]): string | Promise<string> {
    let text = '';
    for (let index = 0; index < events.length; index += 1) {
      const result = options.handler.onEvent(events[index] as UpstreamEvent);
      if (typeof result !== 'string') return handleRest(text, result, events, index + 1);
      text += result;
    }
    return text;
  }

  async function handleRest(text: string, pending: Promise<string>, events: UpstreamEvent[], from: number): Promise<string> {
    let all = text + (await pending);
    for (let index = from; index < events.length; index += 1) all += await options.handler.onEvent(events[index] as UpstreamEvent);
    return all;
  }

  /**
   * Runs one step of the relay (a chunk's events, the upstream's end). A step that waits on a promise holds
   * the upstream until it is done; a handler that throws must not leave the request unmetered or the client
   * hanging: the stream fails (a decoder's GatewayError, an upstream's broken framing, keeps its words).
   */
  function step(work: () => void | Promise<void>): void {
    let pending: void | Promise<void>;
    try {
      pending = work();
    } catch (cause) {
      return failOnHandler(cause);
    }
    if (!pending) return;
    handling = true;
    holdUpstream();
    pending.then(
      () => {
        handling = false;
        if (pendingFailure) return void fail(pendingFailure);
        if (endPending) return onEnd();
        if (!upstreamDone && !failing && !clientFull) waitForUpstream();
      },
      (cause: unknown) => {
        handling = false;
        failOnHandler(cause);
      },
    );
  }

  function failOnHandler(cause: unknown): void {
    letUpstreamGo();
    void fail(cause instanceof GatewayError ? cause : new GatewayError('internal', 'The gateway failed to relay the stream.', { code: 'stream_relay_failed', cause }));
  }

  function onChunk(chunk: Buffer): void {
    timeLimits?.readEnded();
    if (failing || settled) return;
    step(() => {
      const text = handle(decoder.push(chunk));
      return typeof text === 'string' ? send(text) : text.then(send);
    });
  }

  /** The client gets `text` ('' sends nothing); the upstream is held while the client's side is full. */
  function send(text: string): void {
    if (text && !client.push(text)) {
      clientFull = true;
      return holdUpstream();
    }
    if (!handling) waitForUpstream();
  }

  function onEnd(): void {
    upstreamDone = true;
    timeLimits?.readEnded();
    if (failing || settled) return;
    // All its data was taken, but the last chunk's handling may still be under way: the end comes after it.
    endPending = handling;
    if (handling) return;
    step(async () => {
      const text = await handle(decoder.end());
      // A cut-off answer must not look complete: it fails like a stream that broke off.
      if (options.handler.cutOff?.()) return fail(cutOffError(options.provider), text);
      const frames = appendFrames(text, await options.handler.onEnd());
      if (frames) client.push(frames);
      await settle({ outcome: 'completed' });
      client.push(null);
    });
  }

  function onBroken(cause: unknown): void {
    if (upstreamDone) return;
    upstreamDone = true;
    timeLimits?.readEnded();
    endWith(new GatewayError('upstream', `Provider "${options.provider}" broke off the stream.`, { code: 'upstream_stream_interrupted', cause }));
  }

  async function settle(settlement: StreamSettlement): Promise<void> {
    if (settled) return;
    settled = true;
    stopTimers();
    await options.onSettled(settlement);
  }

  /** Ends the stream with the error frame, after `sent`: the last events the upstream sent (a cut-off answer's). */
  async function fail(error: GatewayError, sent = ''): Promise<void> {
    // Once only: a time limit may pass while the upstream breaks off.
    if (failing || settled) return;
    failing = true;
    // No heartbeat or time limit may slip in while an asynchronous frame is written: the stream ends here.
    stopTimers();
    // An event cut off mid-way is dropped: its bytes would merge with the error frame into one broken event.
    decoder.discard();
    const frame = options.errorFrame(error);
    client.push(appendFrames(sent, typeof frame === 'string' ? frame : await frame));
    await settle({ outcome: 'failed', error });
    client.push(null);
  }

  return client;
}

/** An upstream that closed its stream cleanly before the answer's end: as much a failure as one that broke off. */
function cutOffError(provider: string): GatewayError {
  return new GatewayError('upstream', `Provider "${provider}" closed the stream before the answer was complete.`, { code: 'upstream_stream_interrupted' });
}
