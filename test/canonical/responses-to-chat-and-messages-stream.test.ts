import { describe, expect, it } from 'vitest';
import { anthropicMessagesProtocol } from '../../shared/protocols/anthropic-messages/anthropic-messages-protocol.ts';
import { openAiChatProtocol } from '../../shared/protocols/openai-chat/openai-chat-protocol.ts';
import { openAiResponsesProtocol } from '../../shared/protocols/openai-responses/openai-responses-protocol.ts';
import { accumulateAnthropicEvents, AnthropicStreamError, parseAnthropicFrames, summarizeMessage } from './support/anthropic-stream-accumulator.ts';
import { expectWellFormedChatStream } from './support/chat-stream-shape.ts';
import { chatFramePayloads, readChatStreamWithOpenAiSdk } from './support/openai-sdk-stream.ts';
import { readResponsesStreamWithOpenAiSdk } from './support/openai-sdk-responses-stream.ts';
import { responsesFixtureBody, sseData } from './support/sse-replay.ts';
import { translateStream } from './support/translate.ts';

const recorded = [
  { fixture: 'responses-stream-text.sse', finishReason: 'stop', stopReason: 'end_turn' },
  { fixture: 'responses-stream-function-call.sse', finishReason: 'tool_calls', stopReason: 'tool_use' },
  { fixture: 'responses-stream-reasoning-summary-function-call.chunks.txt', finishReason: 'tool_calls', stopReason: 'tool_use' },
  { fixture: 'azure-responses-parallel-function-calls.sse', finishReason: 'tool_calls', stopReason: 'tool_use' },
  // The recorder redacted the finished texts of this one ("REDACTED"); its deltas say "pong", which is what a translation streams.
  { fixture: 'azure-responses-text-pong.sse', finishReason: 'stop', stopReason: 'end_turn', streamedText: 'pong' },
];

/** What the recorded stream itself says, read by the official SDK. */
const sourceOf = (fixture: string) => readResponsesStreamWithOpenAiSdk(responsesFixtureBody(fixture));
const replay = (fixture: string, client: typeof openAiChatProtocol) =>
  translateStream(openAiResponsesProtocol, client, sseData(responsesFixtureBody(fixture)), { presentation: { showUsage: true } });

describe('recorded Responses streams translated to chat streams', () => {
  it.each(recorded)('$fixture reassembles in the OpenAI SDK to the source text, reasoning, calls and usage', async ({ fixture, finishReason, streamedText }) => {
    const source = await sourceOf(fixture);
    const frames = await replay(fixture, openAiChatProtocol);
    expectWellFormedChatStream(frames);
    const read = await readChatStreamWithOpenAiSdk(frames);
    expect(read.text).toBe(streamedText ?? source.text);
    expect(read.reasoning).toBe(source.reasoning);
    expect(read.toolCalls).toEqual(source.toolCalls);
    expect(read.finishReason).toBe(finishReason);
    expect(read.usage).toMatchObject({ prompt_tokens: source.usage?.input_tokens, completion_tokens: source.usage?.output_tokens });
    expect(read.usage?.completion_tokens_details?.reasoning_tokens).toBe(source.usage?.output_tokens_details.reasoning_tokens);
  });

  it('turns a custom tool call (its input deltas) into a chat custom tool call', async () => {
    const read = await readChatStreamWithOpenAiSdk(await replay('openai-responses-custom-tool-call.chunks.jsonl', openAiChatProtocol));
    expect(read.toolCalls).toEqual([{ id: 'call_g8yRNFvYwhYY5Eb3rGIAxf8l', name: 'setHtml', input: '<main><h1>Streaming custom tool input</h1><p>This must arrive progressively.</p></main>', custom: true }]);
  });

  it.each(['responses-stream-error-insufficient-quota.chunks.txt', 'openai-responses-error-failed.chunks.jsonl'])(
    '%s (failed after HTTP 200) ends in one OpenAI error frame, without [DONE]',
    async (fixture) => {
      const frames = await replay(fixture, openAiChatProtocol);
      const payloads = chatFramePayloads(frames);
      expect(payloads.at(-1)).toEqual({ error: { message: expect.stringMatching(/^You exceeded your current quota/), type: 'insufficient_quota', code: null, param: null } });
      expect(frames).not.toContain('data: [DONE]\n\n');
      await expect(readChatStreamWithOpenAiSdk(frames)).rejects.toThrow(/exceeded your current quota/);
    },
  );
});

describe('recorded Responses streams translated to Anthropic streams', () => {
  it.each(recorded)('$fixture is a well-formed message stream with the source text, thinking, calls and usage', async ({ fixture, stopReason, streamedText }) => {
    const source = await sourceOf(fixture);
    const message = accumulateAnthropicEvents(parseAnthropicFrames(await replay(fixture, anthropicMessagesProtocol)));
    const summary = summarizeMessage(message);
    expect(summary.text).toBe(streamedText ?? source.text);
    expect(summary.thinking).toBe(source.reasoning);
    expect(summary.toolCalls).toEqual(source.toolCalls);
    expect(message.stop_reason).toBe(stopReason);
    expect(summary.promptTokens).toBe(source.usage?.input_tokens);
    expect(summary.outputTokens).toBe(source.usage?.output_tokens);
  });

  it('writes a custom tool call as tool_use whose `input` holds the free text', async () => {
    const message = accumulateAnthropicEvents(parseAnthropicFrames(await replay('openai-responses-custom-tool-call.chunks.jsonl', anthropicMessagesProtocol)));
    expect(message.content).toEqual([
      { type: 'tool_use', id: 'call_g8yRNFvYwhYY5Eb3rGIAxf8l', name: 'setHtml', input: { input: '<main><h1>Streaming custom tool input</h1><p>This must arrive progressively.</p></main>' } },
    ]);
  });

  it('ends a stream that failed after HTTP 200 with an Anthropic error event', async () => {
    const frames = await replay('responses-stream-error-insufficient-quota.chunks.txt', anthropicMessagesProtocol);
    expect(() => accumulateAnthropicEvents(parseAnthropicFrames(frames))).toThrow(AnthropicStreamError);
    expect(frames.at(-1)).toMatch(/^event: error\n/);
  });
});
