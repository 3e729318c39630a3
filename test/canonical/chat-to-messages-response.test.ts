import { describe, expect, it } from 'vitest';
import { GatewayError } from '../../shared/core/errors.ts';
import { convertChatResponseToMessages } from './support/translate.ts';
import { readFixture } from '../support/fixtures.ts';

const convert = (fixture: string) =>
  convertChatResponseToMessages(JSON.parse(readFixture(`openai-chat/${fixture}`)) as unknown, { model: 'gpt-client-name', responseId: 'gateway_1' });

describe('convertChatResponseToMessages', () => {
  it('answers a recorded tool call as a tool_use message with parsed input and stop_reason tool_use', () => {
    expect(convert('chat-nonstream-tool-calls.json')).toEqual({
      id: 'msg_gateway_1',
      type: 'message',
      role: 'assistant',
      model: 'gpt-4o-mini-2024-07-18',
      content: [{ type: 'tool_use', id: 'call_TTY8UFNo7rNCaOBUNtlRSvMG', name: 'lookup_population', input: { country: 'Crumpet' } }],
      stop_reason: 'tool_use',
      stop_sequence: null,
      usage: { input_tokens: 92, cache_creation_input_tokens: 0, cache_read_input_tokens: 0, output_tokens: 17 },
    });
  });

  it('reports cached prompt tokens as cache reads and only the uncached rest as input_tokens', () => {
    expect(convert('chat-nonstream-cached-tokens.json').usage).toEqual({
      input_tokens: 10122 - 9984,
      cache_creation_input_tokens: 0,
      cache_read_input_tokens: 9984,
      output_tokens: 1,
    });
  });

  it('answers recorded text as one text block with stop_reason end_turn', () => {
    const message = convert('chat-nonstream-reasoning-tokens.json');
    expect(message.content).toEqual([{ type: 'text', text: 'Hello there! How can I help you today?' }]);
    expect(message.stop_reason).toBe('end_turn');
    expect(message.usage.output_tokens).toBe(87);
  });

  it("names the message after the gateway's request id", () => {
    const completion = JSON.parse(readFixture('openai-chat/chat-nonstream-text-usage-details.json')) as unknown;
    expect(convertChatResponseToMessages(completion, { model: 'm', responseId: 'gen123' }).id).toBe('msg_gen123');
  });

  const completion = (message: Record<string, unknown>, finishReason = 'stop') => ({
    id: 'chatcmpl-1',
    choices: [{ index: 0, message: { role: 'assistant', ...message }, finish_reason: finishReason }],
    usage: { prompt_tokens: 5, completion_tokens: 3 },
  });

  it('puts reasoning_content (or reasoning) first as a thinking block with an empty signature', () => {
    for (const field of ['reasoning_content', 'reasoning']) {
      const message = convertChatResponseToMessages(completion({ [field]: 'Let me think.', content: 'Done.' }), { model: 'm' });
      expect(message.content).toEqual([
        { type: 'thinking', thinking: 'Let me think.', signature: '' },
        { type: 'text', text: 'Done.' },
      ]);
    }
  });

  it('reads a plain stop after tool calls as tool_use, so an Anthropic client runs the tools', () => {
    const toolCall = { id: 'call_1', type: 'function', function: { name: 'f', arguments: '{}' } };
    expect(convertChatResponseToMessages(completion({ content: null, tool_calls: [toolCall] }), { model: 'm' }).stop_reason).toBe('tool_use');
  });

  it.each([
    ['length', 'max_tokens'],
    ['content_filter', 'refusal'],
    ['tool_calls', 'tool_use'],
  ])('maps finish_reason %s to stop_reason %s', (finishReason, stopReason) => {
    expect(convertChatResponseToMessages(completion({ content: 'x' }, finishReason), { model: 'm' }).stop_reason).toBe(stopReason);
  });

  it('keeps arguments that are not a JSON object under raw_arguments, so the input stays an object', () => {
    const toolCall = { id: 'call_1', type: 'function', function: { name: 'f', arguments: '{"a": 1' } };
    const message = convertChatResponseToMessages(completion({ tool_calls: [toolCall] }, 'tool_calls'), { model: 'm' });
    expect(message.content).toEqual([{ type: 'tool_use', id: 'call_1', name: 'f', input: { raw_arguments: '{"a": 1' } }]);
  });

  it('refuses a body without choices with an upstream error', () => {
    expect(() => convertChatResponseToMessages({ id: 'x', choices: [] }, { model: 'm' })).toThrow(GatewayError);
  });
});
