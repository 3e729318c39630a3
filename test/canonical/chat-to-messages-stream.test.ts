import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createChatToMessagesStreamTranslator } from './support/translate.ts';
import { readFixture } from '../support/fixtures.ts';
import { accumulateAnthropicEvents, AnthropicStreamError, parseAnthropicFrames, summarizeMessage } from './support/anthropic-stream-accumulator.ts';
import { readChatStreamWithOpenAiSdk } from './support/openai-sdk-stream.ts';
import { chatFixtureBody, sseData, sseDataFromBytes, utf8 } from './support/sse-replay.ts';

const options = { model: 'gpt-client-name', messageId: 'msg_gateway_1' };

function translate(chunkData: unknown[], extra: { inputTokensEstimate?: number } = {}): string[] {
  const translator = createChatToMessagesStreamTranslator({ ...options, ...extra });
  return [...chunkData.flatMap((data) => translator.push(data)), ...translator.end()];
}

const translatedMessage = (frames: string[]) => accumulateAnthropicEvents(parseAnthropicFrames(frames));

const recorded = [
  { fixture: 'chat-stream-tool-calls-include-usage.sse', stopReason: 'tool_use' },
  { fixture: 'chat-stream-text-include-usage.sse', stopReason: 'end_turn' },
  { fixture: 'chat-stream-azure-reasoning-include-usage.chunks.txt', stopReason: 'end_turn' },
];

describe('createChatToMessagesStreamTranslator over recorded chat streams', () => {
  it.each(recorded)('$fixture becomes a well-formed message with the source text, tool calls and usage', async ({ fixture, stopReason }) => {
    const body = chatFixtureBody(fixture);
    const source = await readChatStreamWithOpenAiSdk(sseData(body).map((data) => `data: ${data}\n\n`));
    const message = translatedMessage(translate(sseData(body)));
    const translated = summarizeMessage(message);
    expect(translated.text).toBe(source.text);
    expect(translated.toolCalls).toEqual(source.toolCalls);
    expect(message.stop_reason).toBe(stopReason);
    expect(translated.promptTokens).toBe(source.usage?.prompt_tokens);
    expect(translated.cachedTokens).toBe(source.usage?.prompt_tokens_details?.cached_tokens);
    expect(translated.outputTokens).toBe(source.usage?.completion_tokens);
  });

  it('streams the tool call as one tool_use block whose input_json_delta fragments are the source fragments', () => {
    const events = parseAnthropicFrames(translate(sseData(chatFixtureBody('chat-stream-tool-calls-include-usage.sse'))));
    expect(events.map((event) => event.type)).toEqual([
      'message_start',
      'content_block_start',
      ...Array<string>(11).fill('content_block_delta'),
      'content_block_stop',
      'message_delta',
      'message_stop',
    ]);
    expect(events[1]).toEqual({
      type: 'content_block_start',
      index: 0,
      content_block: { type: 'tool_use', id: 'call_1EYWDzueHEp8OsB8jJSEp7WB', name: 'multiply', input: {} },
    });
    expect(events[2]).toEqual({ type: 'content_block_delta', index: 0, delta: { type: 'input_json_delta', partial_json: '{"' } });
  });

  it('announces the input estimate in message_start and the real usage in message_delta', () => {
    const events = parseAnthropicFrames(translate(sseData(chatFixtureBody('chat-stream-text-include-usage.sse')), { inputTokensEstimate: 80 }));
    expect(events[0]).toEqual({
      type: 'message_start',
      message: {
        id: 'msg_gateway_1',
        type: 'message',
        role: 'assistant',
        model: 'gpt-4o-mini-2024-07-18',
        content: [],
        stop_reason: null,
        stop_sequence: null,
        usage: { input_tokens: 80, cache_creation_input_tokens: 0, cache_read_input_tokens: 0, output_tokens: 0 },
      },
    });
    expect(events.at(-2)).toEqual({
      type: 'message_delta',
      delta: { stop_reason: 'end_turn', stop_sequence: null },
      usage: { input_tokens: 87, cache_creation_input_tokens: 0, cache_read_input_tokens: 0, output_tokens: 26 },
    });
  });

  it('closes the message when [DONE] arrives, and end() then adds nothing', () => {
    const translator = createChatToMessagesStreamTranslator(options);
    const frames = sseData(chatFixtureBody('chat-stream-text-include-usage.sse')).flatMap((data) => translator.push(data));
    expect(parseAnthropicFrames(frames).at(-1)?.type).toBe('message_stop');
    expect(translator.end()).toEqual([]);
  });

  it('stops the open tool_use block and closes the message when the stream ends before its finish chunk', () => {
    const data = sseData(chatFixtureBody('chat-stream-tool-calls-include-usage.sse'));
    const message = translatedMessage(translate(data.slice(0, data.findIndex((chunk) => chunk.includes('"finish_reason":"tool_calls"')))));
    expect(message.stop_reason).toBe('tool_use');
    expect(message.content).toEqual([{ type: 'tool_use', id: 'call_1EYWDzueHEp8OsB8jJSEp7WB', name: 'multiply', input: { a: 1231, b: 2331 } }]);
  });

  it('turns a chat error frame (a recorded 429 body) into an Anthropic error event and writes nothing after it', () => {
    const data = sseData(chatFixtureBody('chat-stream-text-include-usage.sse'));
    const frames = translate([...data.slice(0, 3), readFixture('openai-chat/chat-error-429-rate-limit-exceeded-2024.json'), ...data.slice(3)]);
    const last = parseAnthropicFrames(frames).at(-1);
    expect(last).toMatchObject({ type: 'error', error: { type: 'rate_limit_error' } });
    expect(() => translatedMessage(frames)).toThrow(AnthropicStreamError);
    expect(frames.at(-1)).toMatch(/^event: error\ndata: \{"type":"error","error":\{"type":"rate_limit_error","message":"Rate limit reached for gpt-4o-mini/);
  });

  it.each(recorded)('$fixture translates the same whatever byte offsets the upstream body is cut at', ({ fixture }) => {
    const body = utf8(chatFixtureBody(fixture));
    const whole = translate(sseDataFromBytes(body)).join('');
    fc.assert(
      fc.property(fc.array(fc.nat({ max: body.length }), { maxLength: 30 }), (cuts) => {
        expect(translate(sseDataFromBytes(body, cuts)).join('')).toBe(whole);
      }),
      { numRuns: 60 },
    );
  });
});
