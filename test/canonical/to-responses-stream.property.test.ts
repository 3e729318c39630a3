import fc from 'fast-check';
import type OpenAI from 'openai';
import { describe, expect, it } from 'vitest';
import { anthropicMessagesProtocol } from '../../shared/protocols/anthropic-messages/anthropic-messages-protocol.ts';
import { openAiChatProtocol } from '../../shared/protocols/openai-chat/openai-chat-protocol.ts';
import { openAiResponsesProtocol } from '../../shared/protocols/openai-responses/openai-responses-protocol.ts';
import { anthropicSourceEvents, chatSourceChunks, meaningOf, sourceItems, sourceUsage } from './support/generated-streams.ts';
import { readResponsesStreamWithOpenAiSdk } from './support/openai-sdk-responses-stream.ts';
import { translateStream } from './support/translate.ts';

/** How each source finish ends a response: its status and, when incomplete, the reason. */
const endByChatFinish: Record<string, [string, string | undefined]> = {
  stop: ['completed', undefined],
  tool_calls: ['completed', undefined],
  length: ['incomplete', 'max_output_tokens'],
  content_filter: ['incomplete', 'content_filter'],
};
const endByStopReason: Record<string, [string, string | undefined]> = {
  end_turn: ['completed', undefined],
  stop_sequence: ['completed', undefined],
  pause_turn: ['completed', undefined],
  tool_use: ['completed', undefined],
  max_tokens: ['incomplete', 'max_output_tokens'],
  refusal: ['incomplete', 'content_filter'],
};

/** Checks what the SDK's accumulator does not: numbering from 0 without gaps, one lifecycle start and end. */
function expectWellFormedEnvelope(events: Array<{ type: string; sequence_number: number }>) {
  expect(events.map((event) => event.sequence_number)).toEqual(events.map((_, position) => position));
  expect(events.slice(0, 2).map((event) => event.type)).toEqual(['response.created', 'response.in_progress']);
  expect(events.filter((event) => /^response\.(completed|incomplete|failed)$/.test(event.type))).toHaveLength(1);
  expect(events.at(-1)?.type).toMatch(/^response\.(completed|incomplete)$/);
}

/** The message items' statuses: a message the output cap or the content filter cut off (the last item) is incomplete, as OpenAI marks it. */
function expectMessageStatuses(response: OpenAI.Responses.Response) {
  const messages = response.output.flatMap((item, position) => (item.type === 'message' ? [{ item, last: position === response.output.length - 1 }] : []));
  expect(messages.map(({ item }) => item.status)).toEqual(messages.map(({ last }) => (last && response.status === 'incomplete' ? 'incomplete' : 'completed')));
}

describe('chat streams translated to Responses streams', () => {
  it('are well formed for the official SDK and carry the source text, reasoning, calls, end and usage', async () => {
    await fc.assert(
      fc.asyncProperty(sourceItems, sourceUsage, fc.constantFrom(...Object.keys(endByChatFinish)), async (items, usage, finish) => {
        const frames = await translateStream(openAiChatProtocol, openAiResponsesProtocol, chatSourceChunks(items, usage, finish));
        const read = await readResponsesStreamWithOpenAiSdk(frames);
        expectWellFormedEnvelope(read.events);
        const meaning = meaningOf(items);
        expect(read.text).toBe(meaning.text);
        expect(read.reasoning).toBe(meaning.reasoning);
        expect(read.toolCalls).toEqual(meaning.toolCalls);
        expect([read.status, read.incompleteReason ?? undefined]).toEqual(endByChatFinish[finish]);
        expectMessageStatuses(read.response);
        expect(read.usage).toEqual({
          input_tokens: usage.input + usage.cacheRead,
          input_tokens_details: { cached_tokens: usage.cacheRead },
          output_tokens: usage.output,
          output_tokens_details: { reasoning_tokens: 0 },
          total_tokens: usage.input + usage.cacheRead + usage.output,
        });
      }),
      { numRuns: 150 },
    );
  });

  it('stay well formed when the upstream stops after any chunk', async () => {
    await fc.assert(
      fc.asyncProperty(sourceItems, sourceUsage, fc.nat(), async (items, usage, cut) => {
        const chunks = chatSourceChunks(items, usage, 'stop');
        const read = await readResponsesStreamWithOpenAiSdk(await translateStream(openAiChatProtocol, openAiResponsesProtocol, chunks.slice(0, cut % (chunks.length + 1))), { parseArguments: false });
        expectWellFormedEnvelope(read.events);
      }),
      { numRuns: 100 },
    );
  });
});

describe('Anthropic streams translated to Responses streams', () => {
  it('are well formed for the official SDK, with thinking as summaries whose signatures ride in encrypted_content (asked for)', async () => {
    const askingForEncryptedReasoning = { presentation: { clientBody: { include: ['reasoning.encrypted_content'] } } };
    await fc.assert(
      fc.asyncProperty(sourceItems, sourceUsage, fc.constantFrom(...Object.keys(endByStopReason)), fc.boolean(), async (items, usage, stopReason, withServerTool) => {
        const frames = await translateStream(anthropicMessagesProtocol, openAiResponsesProtocol, anthropicSourceEvents(items, usage, stopReason, withServerTool), askingForEncryptedReasoning);
        const read = await readResponsesStreamWithOpenAiSdk(frames);
        expectWellFormedEnvelope(read.events);
        const meaning = meaningOf(items);
        expect(read.text).toBe(meaning.text);
        expect(read.reasoning).toBe(meaning.reasoning);
        expect(read.encrypted).toEqual(items.filter((item) => item.kind === 'reasoning').map(() => 'gateway-anthropic-signature:c2lnbmF0dXJl'));
        expect(read.toolCalls).toEqual(meaning.toolCalls);
        expect([read.status, read.incompleteReason ?? undefined]).toEqual(endByStopReason[stopReason]);
        expectMessageStatuses(read.response);
        expect(read.usage).toMatchObject({
          input_tokens: usage.input + usage.cacheRead + usage.cacheWrite,
          input_tokens_details: { cached_tokens: usage.cacheRead },
          output_tokens: usage.output,
        });
      }),
      { numRuns: 150 },
    );
  });

  it('stay well formed when the upstream stops after any event', async () => {
    await fc.assert(
      fc.asyncProperty(sourceItems, sourceUsage, fc.nat(), async (items, usage, cut) => {
        const events = anthropicSourceEvents(items, usage, 'end_turn', false);
        const read = await readResponsesStreamWithOpenAiSdk(await translateStream(anthropicMessagesProtocol, openAiResponsesProtocol, events.slice(0, cut % (events.length + 1))), { parseArguments: false });
        expectWellFormedEnvelope(read.events);
      }),
      { numRuns: 100 },
    );
  });
});
