import { GatewayError } from '../core/errors.ts';
import { watchTimeLimits, type AnswerTimeLimits, type TimeLimitWatch } from './answer-time-limits.ts';
import type { StreamSettlement } from './stream-relay.ts';

export interface BytesRelayOptions {
  provider: string;
  /** Sees each chunk on its way to the client (a meter). */
  observe?(chunk: Uint8Array): void;
  /** Runs once, before the client's stream closes (or errors): metering hands its record over here. */
  onSettled(settlement: StreamSettlement): Promise<void>;
  /**
   * What is left of the request's deadline, and the longest silence between two chunks: a body still coming
   * then, or silent longer, is let go (`upstream_timeout`). Either may be absent.
   */
  timeLimits?: Partial<AnswerTimeLimits>;
}

/**
 * Relays an upstream body byte for byte as it arrives (audio, subtitles), pull-based so backpressure
 * reaches the upstream. A body has no in-band error frame: if the upstream breaks off, or outlives the
 * time limits, the client's body fails too (a truncated file must not look complete), after
 * the request is settled.
 */
export function relayBytes(upstream: ReadableStream<Uint8Array>, options: BytesRelayOptions): ReadableStream<Uint8Array> {
  const reader = upstream.getReader();
  let settled = false;
  let pulling = false;
  let timeLimits: TimeLimitWatch | undefined;
  /** A time limit passed: the pull under way, or the next one, fails with it. */
  let expired: GatewayError | undefined;
  const settle = async (settlement: StreamSettlement) => {
    if (settled) return;
    settled = true;
    timeLimits?.stop();
    await options.onSettled(settlement);
  };
  const fail = async (controller: ReadableStreamDefaultController<Uint8Array>, error: GatewayError) => {
    if (settled) return;
    await settle({ outcome: 'failed', error });
    controller.error(error);
  };
  /** Cancelling the upstream ends a pending read at once (as done); with no pull under way, the body fails here. */
  const expire = (controller: ReadableStreamDefaultController<Uint8Array>, error: GatewayError) => {
    if (settled || expired) return;
    expired = error;
    reader.cancel(error).catch(() => undefined);
    if (!pulling) fail(controller, error).catch((cause: unknown) => controller.error(cause));
  };
  return new ReadableStream<Uint8Array>(
    {
      start(controller) {
        if (options.timeLimits) timeLimits = watchTimeLimits(options.timeLimits, options.provider, (error) => expire(controller, error));
      },
      async pull(controller) {
        pulling = true;
        let read: ReadableStreamReadResult<Uint8Array>;
        try {
          timeLimits?.readStarted();
          read = await reader.read();
        } catch (cause) {
          const error = expired ?? new GatewayError('upstream', `Provider "${options.provider}" broke off the response.`, { code: 'upstream_stream_interrupted', cause });
          await fail(controller, error);
          return;
        } finally {
          timeLimits?.readEnded();
          pulling = false;
        }
        if (expired) return fail(controller, expired);
        if (read.done) {
          await settle({ outcome: 'completed' });
          controller.close();
          return;
        }
        options.observe?.(read.value);
        controller.enqueue(read.value);
      },
      async cancel(reason) {
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
