import { describe, expect, it } from 'vitest';
import { anthropicStopReasonFor, mapAnthropicStopReason, toAnthropicStopReason } from '../../shared/protocols/anthropic-messages/messages-stop-reason.ts';
import { mapChatFinishReason, toChatFinishReason } from '../../shared/protocols/openai-chat/chat-finish-reason.ts';

describe('finish reason mapping', () => {
  it.each([
    ['end_turn', 'stop', 'stop'],
    ['stop_sequence', 'stop', 'stop'],
    ['pause_turn', 'stop', 'stop'],
    ['max_tokens', 'length', 'length'],
    ['tool_use', 'tool-calls', 'tool_calls'],
    ['refusal', 'content-filter', 'content_filter'],
    ['something_new', 'other', 'stop'],
  ])('reads Anthropic %s as %s and writes it to chat as %s', (stopReason, canonical, chat) => {
    expect(mapAnthropicStopReason(stopReason)).toBe(canonical);
    expect(toChatFinishReason(mapAnthropicStopReason(stopReason))).toBe(chat);
  });

  it.each([
    ['stop', 'stop', 'end_turn'],
    ['length', 'length', 'max_tokens'],
    ['tool_calls', 'tool-calls', 'tool_use'],
    ['function_call', 'tool-calls', 'tool_use'],
    ['content_filter', 'content-filter', 'refusal'],
    ['error', 'error', 'end_turn'],
    [null, 'other', 'end_turn'],
  ])('reads chat %s as %s and writes it to Anthropic as %s', (finishReason, canonical, anthropic) => {
    expect(mapChatFinishReason(finishReason)).toBe(canonical);
    expect(toAnthropicStopReason(mapChatFinishReason(finishReason))).toBe(anthropic);
  });

  it('reads a plain stop as tool_use when tool calls were made, and leaves other reasons alone', () => {
    expect(anthropicStopReasonFor('stop', true)).toBe('tool_use');
    expect(anthropicStopReasonFor('stop', false)).toBe('end_turn');
    expect(anthropicStopReasonFor('length', true)).toBe('max_tokens');
  });
});
