import type { GatewayError } from '../core/errors.ts';
import { asWebStream, type AnswerStream } from '../http/gateway-http.ts';

/** What came of holding a stream's status: the stream to answer with, or the failure to answer instead. */
export type HeldStream = { body: ReadableStream<Uint8Array> } | { failure: GatewayError };

/**
 * Holds a client stream's status until its first bytes: the client protocol writes nothing for the
 * upstream's opening events, so the first bytes are the first content (or a heartbeat, when the upstream
 * thinks in silence: then the status goes out with it). If the protocol's stream failed before writing
 * anything, the failure is answered with its own status instead, and the stream is let go (it settles its
 * usage as it ends or is cancelled). The bytes read while holding reach the client first.
 */
export async function holdStatusUntilContent(body: AnswerStream, heldFailure: () => GatewayError | undefined): Promise<HeldStream> {
  const reader = asWebStream(body).getReader();
  let first: Uint8Array | undefined;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    if (value.byteLength > 0) {
      first = value;
      break;
    }
  }
  const failure = heldFailure();
  if (failure) {
    await reader.cancel().catch(() => undefined);
    return { failure };
  }
  return { body: resumed(first, reader) };
}

/** The stream again: the chunk read while holding, then the rest as it comes. */
function resumed(first: Uint8Array | undefined, reader: ReadableStreamDefaultReader<Uint8Array>): ReadableStream<Uint8Array> {
  let pending = first;
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        if (pending) {
          controller.enqueue(pending);
          pending = undefined;
          return;
        }
        const { done, value } = await reader.read();
        if (done) controller.close();
        else controller.enqueue(value);
      },
      cancel: (reason) => reader.cancel(reason),
    },
    { highWaterMark: 0 },
  );
}
