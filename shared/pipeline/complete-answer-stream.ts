import { canonicalEventsOf } from '../canonical/canonical-response-events.ts';
import type { TokenUsage } from '../core/token-usage.ts';
import type { Bridge } from '../protocols/bridge.ts';
import type { Presentation } from '../protocols/wire-protocol.ts';
import type { UpstreamEvent } from '../transport/stream-decoder.ts';

/** A writer of canonical events reads only them: there is no upstream event behind a complete answer. */
const NO_UPSTREAM_EVENT: UpstreamEvent = { raw: '', data: undefined, payload: undefined };

const encoder = new TextEncoder();

/**
 * A complete answer for a client that asked for a stream: the upstream ignored `stream: true` and answered
 * JSON. Its canonical events go through the client protocol's stream writer, so that the client's SDK reads
 * the answer as it reads any stream, and the answer is billed. What the canonical model has no place for (a
 * native answer's unknown fields) is not carried. Read strictly, so that an answer its protocol cannot read
 * is no answer (invalid-answer.ts), not shown as text. None for a bridge without such a writer (the
 * endpoints beyond conversations other than legacy completions): their answer is shown as it came.
 */
export async function completeAnswerAsStream(
  bridge: Bridge,
  answer: { payload: Record<string, unknown>; usage: TokenUsage },
  presentation: Omit<Presentation, 'finalUsage'>,
): Promise<ReadableStream<Uint8Array> | undefined> {
  if (!bridge.createAnswerStream) return undefined;
  const canonical = { ...bridge.readResponse(answer.payload), usage: answer.usage };
  const output = bridge.createAnswerStream({ ...presentation, finalUsage: async () => answer.usage });
  const frames = (await output.push(NO_UPSTREAM_EVENT, canonicalEventsOf(canonical))) + (await output.end());
  return new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(encoder.encode(frames));
      controller.close();
    },
  });
}
