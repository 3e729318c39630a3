import { GatewayError } from '../core/errors.ts';
import { answerDeadlineError } from './answer-time-limits.ts';
import type { StreamSettlement } from './stream-relay.ts';

export interface BytesRelayOptions {
  provider: string;
  /** Sees each chunk on its way to the client (a meter). */
  observe(chunk: Uint8Array): void;
  /** Runs once, before the client's stream closes (or errors): metering hands its record over here. */
  onSettled(settlement: StreamSettlement): Promise<void>;
  /** What is left of the request's deadline: a body still coming then is let go (`upstream_timeout`). */
  remainingMs?: number;
}

/**
 * Relays an upstream body byte for byte as it arrives (audio, subtitles), pull-based so backpressure
 * reaches the upstream. A body has no in-band error frame: if the upstream breaks off, or is still sending
 * at the request's deadline, the client's body fails too (a truncated file must not look complete), after
 * the request is settled.
 */
export function relayBytes(upstream: ReadableStream<Uint8Array>, options: BytesRelayOptions): ReadableStream<Uint8Array> {
  const reader = upstream.getReader();
  let settled = false;
  let pulling = false;
  let deadlineTimer: NodeJS.Timeout | undefined;
  /** The deadline passed: the pull under way, or the next one, fails with it. */
  let expired: GatewayError | undefined;
  const settle = async (settlement: StreamSettlement) => {
    if (settled) return;
    settled = true;
    clearTimeout(deadlineTimer);
    await options.onSettled(settlement);
  };
  const fail = async (controller: ReadableStreamDefaultController<Uint8Array>, error: GatewayError) => {
    if (settled) return;
    await settle({ outcome: 'failed', error });
    controller.error(error);
  };
  /** Cancelling the upstream ends a pending read at once (as done); with no pull under way, the body fails here. */
  const expire = (controller: ReadableStreamDefaultController<Uint8Array>) => {
    if (settled || expired) return;
    expired = answerDeadlineError(options.provider);
    reader.cancel(expired).catch(() => undefined);
    if (!pulling) fail(controller, expired).catch((cause: unknown) => controller.error(cause));
  };
  return new ReadableStream<Uint8Array>(
    {
      start(controller) {
        if (options.remainingMs === undefined) return;
        // Unref'd: the upstream's socket keeps the process alive while the body is relayed, not this timer.
        deadlineTimer = setTimeout(() => expire(controller), Math.max(0, options.remainingMs)).unref();
      },
      async pull(controller) {
        pulling = true;
        let read: ReadableStreamReadResult<Uint8Array>;
        try {
          read = await reader.read();
        } catch (cause) {
          const error = expired ?? new GatewayError('upstream', `Provider "${options.provider}" broke off the response.`, { code: 'upstream_stream_interrupted', cause });
          await fail(controller, error);
          return;
        } finally {
          pulling = false;
        }
        if (expired) return fail(controller, expired);
        if (read.done) {
          await settle({ outcome: 'completed' });
          controller.close();
          return;
        }
        options.observe(read.value);
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
