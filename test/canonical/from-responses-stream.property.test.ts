import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { anthropicMessagesProtocol } from '../../shared/protocols/anthropic-messages/anthropic-messages-protocol.ts';
import { openAiChatProtocol } from '../../shared/protocols/openai-chat/openai-chat-protocol.ts';
import { openAiResponsesProtocol } from '../../shared/protocols/openai-responses/openai-responses-protocol.ts';
import { accumulateAnthropicEvents, parseAnthropicFrames, summarizeMessage } from './support/anthropic-stream-accumulator.ts';
import { expectWellFormedChatStream } from './support/chat-stream-shape.ts';
import { meaningOf, responsesSourceEvents, sourceItems, sourceUsage, type SourceItem } from './support/generated-streams.ts';
import { readChatStreamWithOpenAiSdk } from './support/openai-sdk-stream.ts';
import { translateStream } from './support/translate.ts';

const end = fc.constantFrom('completed' as const, 'max_output_tokens' as const, 'content_filter' as const);
const madeCalls = (items: SourceItem[]) => items.some((item) => item.kind === 'tool');
const chatFinishOf = (ending: string, items: SourceItem[]) =>
  ({ completed: madeCalls(items) ? 'tool_calls' : 'stop', max_output_tokens: 'length', content_filter: 'content_filter' })[ending];
const stopReasonOf = (ending: string, items: SourceItem[]) =>
  ({ completed: madeCalls(items) ? 'tool_use' : 'end_turn', max_output_tokens: 'max_tokens', content_filter: 'refusal' })[ending];

describe('Responses streams translated to chat streams', () => {
  it('are well formed for the official SDK and carry the text, reasoning, calls, finish and usage', async () => {
    await fc.assert(
      fc.asyncProperty(sourceItems, sourceUsage, end, async (items, usage, ending) => {
        const frames = await translateStream(openAiResponsesProtocol, openAiChatProtocol, responsesSourceEvents(items, usage, ending), { presentation: { showUsage: true } });
        const meaning = meaningOf(items);
        expect(expectWellFormedChatStream(frames).toolCallCount).toBe(meaning.toolCalls.length);
        const read = await readChatStreamWithOpenAiSdk(frames);
        expect(read.text).toBe(meaning.text);
        expect(read.reasoning).toBe(meaning.reasoning);
        expect(read.toolCalls).toEqual(meaning.toolCalls);
        expect(read.finishReason).toBe(chatFinishOf(ending, items));
        expect(read.usage).toMatchObject({ prompt_tokens: usage.input + usage.cacheRead, completion_tokens: usage.output, prompt_tokens_details: { cached_tokens: usage.cacheRead } });
      }),
      { numRuns: 150 },
    );
  });

  it('stay well formed when the upstream stops after any event', async () => {
    await fc.assert(
      fc.asyncProperty(sourceItems, sourceUsage, fc.nat(), async (items, usage, cut) => {
        const events = responsesSourceEvents(items, usage, 'completed');
        expectWellFormedChatStream(await translateStream(openAiResponsesProtocol, openAiChatProtocol, events.slice(0, cut % (events.length + 1))));
      }),
      { numRuns: 100 },
    );
  });
});

describe('Responses streams translated to Anthropic streams', () => {
  it('are well formed message streams with the text, reasoning, calls, stop reason and usage', async () => {
    await fc.assert(
      fc.asyncProperty(sourceItems, sourceUsage, end, async (items, usage, ending) => {
        const frames = await translateStream(openAiResponsesProtocol, anthropicMessagesProtocol, responsesSourceEvents(items, usage, ending));
        const message = accumulateAnthropicEvents(parseAnthropicFrames(frames));
        const summary = summarizeMessage(message);
        const meaning = meaningOf(items);
        expect(summary.text).toBe(meaning.text);
        expect(summary.thinking).toBe(meaning.reasoning);
        expect(summary.toolCalls).toEqual(meaning.toolCalls);
        expect(message.stop_reason).toBe(stopReasonOf(ending, items));
        expect(summary.promptTokens).toBe(usage.input + usage.cacheRead);
        expect(summary.cachedTokens).toBe(usage.cacheRead);
        expect(summary.outputTokens).toBe(usage.output);
      }),
      { numRuns: 150 },
    );
  });

  it('stay well formed when the upstream stops after any event', async () => {
    await fc.assert(
      fc.asyncProperty(sourceItems, sourceUsage, fc.nat(), async (items, usage, cut) => {
        const events = responsesSourceEvents(items, usage, 'completed');
        accumulateAnthropicEvents(parseAnthropicFrames(await translateStream(openAiResponsesProtocol, anthropicMessagesProtocol, events.slice(0, cut % (events.length + 1)))), { parseToolInput: false });
      }),
      { numRuns: 100 },
    );
  });
});
