import { GatewayError } from '../core/errors.ts';

export interface RelayOptions {
  provider: string;
  /** Renders an error in the client protocol's stream format (after the first byte no status can change). */
  errorFrame: (error: GatewayError) => string;
}

const encoder = new TextEncoder();

/**
 * Passes the upstream's bytes to the client as they arrive (pull-based, so backpressure reaches the
 * upstream). If the upstream breaks off mid-stream, the client gets one error frame and a clean end.
 */
export function relayUpstreamStream(upstream: ReadableStream<Uint8Array>, options: RelayOptions): ReadableStream<Uint8Array> {
  const reader = upstream.getReader();
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        const { done, value } = await reader.read();
        if (done) controller.close();
        else controller.enqueue(value);
      } catch (cause) {
        const error = new GatewayError('upstream', `Provider "${options.provider}" broke off the stream.`, {
          code: 'upstream_stream_interrupted',
          cause,
        });
        controller.enqueue(encoder.encode(options.errorFrame(error)));
        controller.close();
      }
    },
    async cancel(reason) {
      await reader.cancel(reason);
    },
  });
}
