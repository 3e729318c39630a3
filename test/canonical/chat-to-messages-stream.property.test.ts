import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createChatToMessagesStreamTranslator } from './support/translate.ts';
import { accumulateAnthropicEvents, parseAnthropicFrames, summarizeMessage } from './support/anthropic-stream-accumulator.ts';
import { chatSourceChunks, meaningOf, sourceItems, sourceUsage, type SourceItem } from './support/generated-streams.ts';

const stopReasonByFinish: Record<string, string> = { stop: 'end_turn', length: 'max_tokens', tool_calls: 'tool_use', content_filter: 'refusal' };
const finishReason = fc.constantFrom(...Object.keys(stopReasonByFinish));

function translate(chunks: unknown[]): string[] {
  const translator = createChatToMessagesStreamTranslator({ model: 'gpt-client-name', messageId: 'msg_1', inputTokensEstimate: 42 });
  return [...chunks.flatMap((chunk) => translator.push(chunk)), ...translator.end()];
}

/** The block types the items make: adjacent text (or reasoning) deltas continue one block. */
function expectedBlockTypes(items: SourceItem[]): string[] {
  const types: string[] = [];
  for (const item of items) {
    const type = { text: 'text', reasoning: 'thinking', tool: 'tool_use' }[item.kind];
    if (type === 'tool_use' || types.at(-1) !== type) types.push(type);
  }
  return types;
}

/** Checks the envelope the accumulator does not: one message_start first, one message_stop last, dense block indexes. */
function expectWellFormedEnvelope(frames: string[]) {
  const events = parseAnthropicFrames(frames);
  expect(events[0]?.type).toBe('message_start');
  expect(events.at(-1)?.type).toBe('message_stop');
  expect(events.filter((event) => event.type === 'message_start')).toHaveLength(1);
  expect(events.filter((event) => event.type === 'message_stop')).toHaveLength(1);
  const started = events.filter((event) => event.type === 'content_block_start').map((event) => event.index);
  const stopped = events.filter((event) => event.type === 'content_block_stop').map((event) => event.index);
  expect(started).toEqual(started.map((_, position) => position));
  expect(stopped).toEqual(started);
  return events;
}

describe('createChatToMessagesStreamTranslator over generated chat streams', () => {
  it('writes well-formed message streams with the source text, reasoning, tool calls, stop reason and usage', () => {
    fc.assert(
      fc.property(sourceItems, sourceUsage, finishReason, (items, usage, finish) => {
        const frames = translate(chatSourceChunks(items, usage, finish));
        const events = expectWellFormedEnvelope(frames);
        const message = accumulateAnthropicEvents(events);
        const meaning = meaningOf(items);
        expect(message.content.map((block) => block.type)).toEqual(expectedBlockTypes(items));
        const summary = summarizeMessage(message);
        expect(summary.text).toBe(meaning.text);
        expect(summary.thinking).toBe(meaning.reasoning);
        expect(summary.toolCalls).toEqual(meaning.toolCalls);
        const madeToolCalls = meaning.toolCalls.length > 0;
        expect(message.stop_reason).toBe(finish === 'stop' && madeToolCalls ? 'tool_use' : stopReasonByFinish[finish]);
        expect(summary.promptTokens).toBe(usage.input + usage.cacheRead);
        expect(summary.cachedTokens).toBe(usage.cacheRead);
        expect(summary.outputTokens).toBe(usage.output);
      }),
      { numRuns: 200 },
    );
  });

  it('stops every block it started and closes the message when the upstream stops after any chunk', () => {
    fc.assert(
      fc.property(sourceItems, sourceUsage, finishReason, fc.nat(), (items, usage, finish, cut) => {
        const chunks = chatSourceChunks(items, usage, finish);
        const events = expectWellFormedEnvelope(translate(chunks.slice(0, cut % (chunks.length + 1))));
        accumulateAnthropicEvents(events, { parseToolInput: false });
      }),
      { numRuns: 200 },
    );
  });
});
