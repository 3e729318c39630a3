import { GatewayError } from '../core/errors.ts';
import type { StreamSettlement } from './stream-relay.ts';

export interface BytesRelayOptions {
  provider: string;
  /** Sees each chunk on its way to the client (a meter). */
  observe(chunk: Uint8Array): void;
  /** Runs once, before the client's stream closes (or errors): metering hands its record over here. */
  onSettled(settlement: StreamSettlement): Promise<void>;
}

/**
 * Relays an upstream body byte for byte as it arrives (audio, subtitles), pull-based so backpressure
 * reaches the upstream. A body has no in-band error frame: if the upstream breaks off, the client's body
 * fails too (a truncated file must not look complete), after the request is settled.
 */
export function relayBytes(upstream: ReadableStream<Uint8Array>, options: BytesRelayOptions): ReadableStream<Uint8Array> {
  const reader = upstream.getReader();
  let settled = false;
  const settle = async (settlement: StreamSettlement) => {
    if (settled) return;
    settled = true;
    await options.onSettled(settlement);
  };
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        let read: ReadableStreamReadResult<Uint8Array>;
        try {
          read = await reader.read();
        } catch (cause) {
          const error = new GatewayError('upstream', `Provider "${options.provider}" broke off the response.`, { code: 'upstream_stream_interrupted', cause });
          await settle({ outcome: 'failed', error });
          controller.error(error);
          return;
        }
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
