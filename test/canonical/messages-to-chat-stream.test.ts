import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createMessagesToChatStreamTranslator } from './support/translate.ts';
import { readFixture } from '../support/fixtures.ts';
import { accumulateAnthropicEvents, summarizeMessage } from './support/anthropic-stream-accumulator.ts';
import { chatFramePayloads, readChatStreamWithOpenAiSdk } from './support/openai-sdk-stream.ts';
import { anthropicFixtureBody, sseData, sseDataFromBytes, utf8 } from './support/sse-replay.ts';

function translate(eventData: unknown[], includeUsage = true): string[] {
  const translator = createMessagesToChatStreamTranslator({ model: 'claude-client-name', includeUsage, created: 1_700_000_000 });
  return [...eventData.flatMap((data) => translator.push(data)), ...translator.end()];
}

const recorded = [
  { fixture: 'messages-stream-text.sse', finishReason: 'stop' },
  { fixture: 'messages-stream-thinking.sse', finishReason: 'stop' },
  { fixture: 'messages-stream-thinking-then-tool-use.sse', finishReason: 'tool_calls' },
  { fixture: 'messages-stream-tool-use-input-json-delta.sse', finishReason: 'tool_calls' },
  { fixture: 'messages-stream-parallel-tool-use-empty-input.sse', finishReason: 'tool_calls' },
  { fixture: 'messages-stream-cache-usage-server-tool.chunks.txt', finishReason: 'stop' },
];

describe('createMessagesToChatStreamTranslator over recorded Anthropic streams', () => {
  it.each(recorded)('$fixture reassembles in the OpenAI SDK to the source content, tool calls and usage', async ({ fixture, finishReason }) => {
    const data = sseData(anthropicFixtureBody(fixture));
    const source = summarizeMessage(accumulateAnthropicEvents(data.map((payload) => JSON.parse(payload) as { type: string })));
    const read = await readChatStreamWithOpenAiSdk(translate(data));
    expect(read.text).toBe(source.text);
    expect(read.reasoning).toBe(source.thinking);
    expect(read.toolCalls).toEqual(source.toolCalls);
    expect(read.finishReason).toBe(finishReason);
    expect(read.usage?.prompt_tokens).toBe(source.promptTokens);
    expect(read.usage?.prompt_tokens_details?.cached_tokens).toBe(source.cachedTokens);
    expect(read.usage?.completion_tokens).toBe(source.outputTokens);
    expect(read.usage?.total_tokens).toBe(source.promptTokens + source.outputTokens);
  });

  it('counts cache writes and cache reads into prompt_tokens (the server-tool recording: 6 + 3337 + 6289)', async () => {
    const read = await readChatStreamWithOpenAiSdk(translate(sseData(anthropicFixtureBody('messages-stream-cache-usage-server-tool.chunks.txt'))));
    expect(read.usage).toMatchObject({ prompt_tokens: 9632, completion_tokens: 198, prompt_tokens_details: { cached_tokens: 6289 } });
    expect(read.toolCalls).toEqual([]);
  });

  it('numbers tool calls among tool calls only: the tool_use at content block 1 is tool call 0', () => {
    const frames = translate(sseData(anthropicFixtureBody('messages-stream-thinking-then-tool-use.sse')));
    const toolDeltas = chatFramePayloads(frames).flatMap((chunk) => {
      const choices = chunk.choices as Array<{ delta: { tool_calls?: unknown[] } }>;
      return choices.flatMap((choice) => choice.delta.tool_calls ?? []);
    });
    expect(toolDeltas[0]).toEqual({ index: 0, id: 'toolu_01825dXWLSoJwCst1qTsiWdb', type: 'function', function: { name: 'fixed_version', arguments: '' } });
    expect(toolDeltas.slice(1)).toEqual([{ index: 0, function: { arguments: '{}' } }]);
  });

  it('opens with a role chunk and ends with the finish chunk, the usage chunk (choices: []) and [DONE]', () => {
    const frames = translate(sseData(anthropicFixtureBody('messages-stream-text.sse')));
    const payloads = chatFramePayloads(frames);
    expect(payloads[0]).toMatchObject({ id: 'msg_01T8kTq7cYyYJeQ5DxcVUc6D', object: 'chat.completion.chunk', model: 'claude-haiku-4-5-20251001', created: 1_700_000_000 });
    expect(payloads[0]?.choices).toEqual([{ index: 0, delta: { role: 'assistant', content: '' }, logprobs: null, finish_reason: null }]);
    expect(payloads.at(-2)?.choices).toEqual([{ index: 0, delta: {}, logprobs: null, finish_reason: 'stop' }]);
    expect(payloads.at(-1)).toMatchObject({ choices: [], usage: { prompt_tokens: 10, completion_tokens: 4, total_tokens: 14 } });
    expect(frames.at(-1)).toBe('data: [DONE]\n\n');
  });

  it('sends no usage chunk when the client did not ask for usage', () => {
    const payloads = chatFramePayloads(translate(sseData(anthropicFixtureBody('messages-stream-text.sse')), false));
    expect(payloads.some((chunk) => 'usage' in chunk)).toBe(false);
  });

  it('turns a recorded mid-stream overloaded error into a chat error frame that the SDK raises, with no [DONE]', async () => {
    const opening = sseData(anthropicFixtureBody('messages-stream-text.sse')).slice(0, 2);
    const frames = translate([...opening, readFixture('anthropic/messages-stream-error-overloaded.data.json')]);
    expect(frames.at(-1)).toBe('data: {"error":{"message":"Overloaded","type":"server_error","code":null,"param":null}}\n\n');
    await expect(readChatStreamWithOpenAiSdk(frames)).rejects.toThrow('Overloaded');
  });

  it('closes a stream cut before message_delta with a finish reason and [DONE]', async () => {
    const data = sseData(anthropicFixtureBody('messages-stream-tool-use-input-json-delta.sse'));
    const cut = data.slice(0, data.findIndex((payload) => payload.includes('"content_block_stop"')));
    const read = await readChatStreamWithOpenAiSdk(translate(cut));
    expect(read.finishReason).toBe('tool_calls');
    expect(read.toolCalls[0]?.input).toEqual({ title: 'Reproduce issue 13057' });
  });

  it.each(recorded)('$fixture translates the same whatever byte offsets the upstream body is cut at', ({ fixture }) => {
    const body = utf8(anthropicFixtureBody(fixture));
    const whole = translate(sseDataFromBytes(body)).join('');
    fc.assert(
      fc.property(fc.array(fc.nat({ max: body.length }), { maxLength: 30 }), (cuts) => {
        expect(translate(sseDataFromBytes(body, cuts)).join('')).toBe(whole);
      }),
      { numRuns: 60 },
    );
  });

  it('translates byte by byte, every cut inside multi-byte characters included', () => {
    const body = utf8(anthropicFixtureBody('messages-stream-thinking.sse'));
    const everyByte = Array.from({ length: body.length }, (_, offset) => offset);
    expect(translate(sseDataFromBytes(body, everyByte)).join('')).toBe(translate(sseDataFromBytes(body)).join(''));
  });
});
