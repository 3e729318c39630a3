import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createMessagesToChatStreamTranslator } from './support/translate.ts';
import { expectWellFormedChatStream } from './support/chat-stream-shape.ts';
import { anthropicSourceEvents, meaningOf, sourceItems, sourceUsage } from './support/generated-streams.ts';
import { readChatStreamWithOpenAiSdk } from './support/openai-sdk-stream.ts';

const finishByStopReason: Record<string, string> = {
  end_turn: 'stop',
  stop_sequence: 'stop',
  pause_turn: 'stop',
  max_tokens: 'length',
  tool_use: 'tool_calls',
  refusal: 'content_filter',
};
const stopReason = fc.constantFrom(...Object.keys(finishByStopReason));

function translate(events: unknown[]): string[] {
  const translator = createMessagesToChatStreamTranslator({ model: 'claude-client-name', includeUsage: true });
  return [...events.flatMap((event) => translator.push(event)), ...translator.end()];
}

describe('createMessagesToChatStreamTranslator over generated Anthropic streams', () => {
  it('writes well-formed chat streams that the OpenAI SDK reassembles to the source text, tool calls, finish and usage', async () => {
    await fc.assert(
      fc.asyncProperty(sourceItems, sourceUsage, stopReason, fc.boolean(), async (items, usage, reason, withServerTool) => {
        const frames = translate(anthropicSourceEvents(items, usage, reason, withServerTool));
        const meaning = meaningOf(items);
        const shape = expectWellFormedChatStream(frames);
        expect(shape.toolCallCount).toBe(meaning.toolCalls.length);
        const read = await readChatStreamWithOpenAiSdk(frames);
        expect(read.text).toBe(meaning.text);
        expect(read.reasoning).toBe(meaning.reasoning);
        expect(read.toolCalls).toEqual(meaning.toolCalls);
        expect(read.finishReason).toBe(finishByStopReason[reason]);
        expect(read.usage).toMatchObject({
          prompt_tokens: usage.input + usage.cacheRead + usage.cacheWrite,
          completion_tokens: usage.output,
          total_tokens: usage.input + usage.cacheRead + usage.cacheWrite + usage.output,
          prompt_tokens_details: { cached_tokens: usage.cacheRead },
        });
      }),
      { numRuns: 150 },
    );
  });

  it('stays well formed when the upstream stops after any event', () => {
    fc.assert(
      fc.property(sourceItems, sourceUsage, stopReason, fc.nat(), (items, usage, reason, cut) => {
        const events = anthropicSourceEvents(items, usage, reason, false);
        expectWellFormedChatStream(translate(events.slice(0, cut % (events.length + 1))));
      }),
      { numRuns: 150 },
    );
  });
});
