import { describe, expect, it } from 'vitest';
import { GatewayError } from '../../shared/core/errors.ts';
import { convertMessagesResponseToChat } from './support/translate.ts';
import { readFixture } from '../support/fixtures.ts';

const convert = (fixture: string) =>
  convertMessagesResponseToChat(JSON.parse(readFixture(`anthropic/${fixture}`)) as unknown, { model: 'claude-client-name', created: 1_700_000_000 });

describe('convertMessagesResponseToChat', () => {
  it("answers a recorded text message as a chat completion with the message id, the provider's model and usage", () => {
    expect(convert('messages-nonstream-text.json')).toEqual({
      id: 'msg_01VdEjxAP5ahtHKrrRdNBteQ',
      object: 'chat.completion',
      created: 1_700_000_000,
      model: 'claude-sonnet-4-5-20250929',
      choices: [
        {
          index: 0,
          message: {
            role: 'assistant',
            content: "Hello! I'm doing well, thanks for asking. How are you doing today? Is there anything I can help you with?",
            refusal: null,
          },
          logprobs: null,
          finish_reason: 'stop',
        },
      ],
      usage: { prompt_tokens: 12, completion_tokens: 29, total_tokens: 41, prompt_tokens_details: { cached_tokens: 0 }, completion_tokens_details: { reasoning_tokens: 0 } },
    });
  });

  it('counts cache writes and reads into prompt_tokens and reports the reads as cached_tokens', () => {
    expect(convert('messages-nonstream-cache-usage.json').usage).toEqual({
      prompt_tokens: 3 + 418 + 1111,
      completion_tokens: 33,
      completion_tokens_details: { reasoning_tokens: 0 },
      total_tokens: 3 + 418 + 1111 + 33,
      prompt_tokens_details: { cached_tokens: 1111 },
    });
  });

  it('puts thinking in reasoning_content, text in content and tool_use in tool_calls with JSON arguments', () => {
    const source = JSON.parse(readFixture('anthropic/messages-nonstream-thinking-text-tool-use.json')) as { content: Array<{ thinking?: string; text?: string }> };
    const choice = convert('messages-nonstream-thinking-text-tool-use.json').choices[0];
    expect(choice?.message.reasoning_content).toBe(source.content[0]?.thinking);
    expect(choice?.message.content).toBe(source.content[1]?.text);
    expect(choice?.message.tool_calls).toEqual([
      { id: 'toolu_01YGzqpRE16Vricda3Aqcejo', type: 'function', function: { name: 'get_user_country', arguments: '{}' } },
    ]);
    expect(choice?.finish_reason).toBe('tool_calls');
  });

  it('keeps the order and input of parallel tool calls', () => {
    const toolCalls = convert('messages-nonstream-parallel-tool-use.json').choices[0]?.message.tool_calls ?? [];
    expect(toolCalls.map((call) => [call.id, call.function.name, JSON.parse(call.function.arguments)])).toEqual([
      ['toolu_0167cfEnoQaPviGdVXA95zcu', 'retrieve_entity_info', { name: 'Alice' }],
      ['toolu_01EEe2V5HD1Ac4rKiUR4HD2T', 'retrieve_entity_info', { name: 'Bob' }],
      ['toolu_01XFyAjstT3966qvRynZyVPo', 'retrieve_entity_info', { name: 'Charlie' }],
      ['toolu_013mnQZbgtK2oe3Mo3XKJsx3', 'retrieve_entity_info', { name: 'Daisy' }],
    ]);
  });

  it('answers content null when the message holds only tool calls', () => {
    const message = { id: 'msg_1', content: [{ type: 'tool_use', id: 'toolu_1', name: 'f', input: { a: 1 } }], stop_reason: 'tool_use', usage: { input_tokens: 1, output_tokens: 2 } };
    expect(convertMessagesResponseToChat(message, { model: 'm', created: 0 }).choices[0]?.message.content).toBeNull();
  });

  it('refuses a body that is not a message with an upstream error', () => {
    expect(() => convertMessagesResponseToChat({ content: 'not blocks' }, { model: 'm', created: 0 })).toThrow(GatewayError);
  });
});
