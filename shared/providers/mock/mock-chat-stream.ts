import { finishReasonOf, type MockAnswer } from './mock-chat-completion.ts';

const encoder = new TextEncoder();
/** Characters of tool-call arguments per chunk: small pieces, as providers stream them. */
const ARGUMENT_PIECE = 8;

/** The deltas of the answer, in order: the role, then the words of a text or the pieces of a call. */
function deltasOf(answer: MockAnswer): object[] {
  const { reply } = answer;
  if (reply.kind === 'text') {
    return [{ role: 'assistant', content: '' }, ...reply.text.split(/(?<= )/).map((word) => ({ content: word }))];
  }
  const characters = Array.from(reply.arguments);
  const pieces: string[] = [];
  for (let start = 0; start < characters.length; start += ARGUMENT_PIECE) pieces.push(characters.slice(start, start + ARGUMENT_PIECE).join(''));
  return [
    { role: 'assistant', content: null, tool_calls: [{ index: 0, id: answer.toolCallId, type: 'function', function: { name: reply.name, arguments: '' } }] },
    ...pieces.map((piece) => ({ tool_calls: [{ index: 0, function: { arguments: piece } }] })),
  ];
}

/** Every `data:` payload of the stream: OpenAI chat chunks, the usage chunk when asked for, then [DONE]. */
export function mockStreamFrames(answer: MockAnswer, includeUsage: boolean): object[] {
  const chunk = (choices: object[]) => ({ id: answer.id, object: 'chat.completion.chunk', created: answer.created, model: answer.model, choices });
  // One chunk per choice and delta, as OpenAI streams `n` choices.
  const indexes = Array.from({ length: answer.choices }, (_, index) => index);
  const frames: object[] = [
    ...deltasOf(answer).flatMap((delta) => indexes.map((index) => chunk([{ index, delta, finish_reason: null, logprobs: null }]))),
    ...indexes.map((index) => chunk([{ index, delta: {}, finish_reason: finishReasonOf(answer.reply), logprobs: null }])),
  ];
  if (includeUsage) frames.push({ ...chunk([]), usage: answer.usage });
  return frames;
}

/**
 * The frames as an SSE body, `delayMs` apart after the first (so streaming can be seen), ending with
 * `data: [DONE]`; an aborted request stops it without [DONE].
 */
export function streamMockFrames(frames: readonly object[], delayMs: number, signal: AbortSignal | null | undefined): ReadableStream<Uint8Array> {
  let next = 0;
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      if (signal?.aborted) return controller.close();
      if (next > 0 && next < frames.length) await new Promise((resolve) => setTimeout(resolve, delayMs));
      const frame = frames[next++];
      if (frame) controller.enqueue(encoder.encode(`data: ${JSON.stringify(frame)}\n\n`));
      else {
        controller.enqueue(encoder.encode('data: [DONE]\n\n'));
        controller.close();
      }
    },
  });
}
