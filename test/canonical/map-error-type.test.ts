import { describe, expect, it } from 'vitest';
import { mapAnthropicErrorType, toAnthropicErrorType } from '../../shared/protocols/anthropic-messages/anthropic-errors.ts';
import { mapChatErrorType, toChatErrorType } from '../../shared/protocols/openai-chat/openai-errors.ts';

describe('error type mapping', () => {
  it.each(['invalid_request_error', 'authentication_error', 'permission_error', 'not_found_error', 'request_too_large', 'rate_limit_error', 'overloaded_error', 'api_error'])(
    'keeps the Anthropic type %s through the canonical form',
    (type) => {
      expect(toAnthropicErrorType(mapAnthropicErrorType(type))).toBe(type);
    },
  );

  it.each([
    ['requests', 'rate_limit_exceeded', 'rate_limit_error'],
    ['insufficient_quota', null, 'billing_error'],
    ['invalid_request_error', 'model_not_found', 'invalid_request_error'],
    [null, 'model_not_found', 'not_found_error'],
    ['server_error', null, 'api_error'],
  ])('renders the chat error type %s (code %s) to Anthropic as %s', (type, code, anthropic) => {
    expect(toAnthropicErrorType(mapChatErrorType(type, code))).toBe(anthropic);
  });

  it('renders Anthropic errors to chat in OpenAI words', () => {
    expect(toChatErrorType(mapAnthropicErrorType('rate_limit_error'))).toBe('rate_limit_error');
    expect(toChatErrorType(mapAnthropicErrorType('overloaded_error'))).toBe('server_error');
    expect(toChatErrorType(mapAnthropicErrorType('invalid_request_error'))).toBe('invalid_request_error');
  });
});
