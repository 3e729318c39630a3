import { describe, expect, it } from 'vitest';
import { anthropicMessagesProtocol } from '../../../shared/protocols/anthropic-messages/anthropic-messages-protocol.ts';
import { claudeSamplingRule, thinkingModeFor } from '../../../shared/protocols/anthropic-messages/claude-thinking-mode.ts';
import { openAiChatProtocol } from '../../../shared/protocols/openai-chat/openai-chat-protocol.ts';
import { NO_EXTRA_FEATURES } from '../../support/upstream-features.ts';

describe('thinkingModeFor', () => {
  it.each(['claude-3-5-sonnet-20241022', 'anthropic.claude-3-5-sonnet-20240620-v1:0', 'claude-3-5-haiku-latest', 'anthropic.claude-3-5-haiku-20241022-v1:0', 'claude-3-opus-20240229', 'us.anthropic.claude-3-haiku-20240307-v1:0', 'claude-2.1', 'anthropic.claude-v2:1', 'claude-instant-1.2'])(
    'gives %s, which has no thinking, none',
    (model) => {
      expect(thinkingModeFor(model)).toEqual({ type: 'none' });
    },
  );

  it.each([
    'claude-opus-4-7',
    'claude-opus-4-8',
    'claude-sonnet-5',
    'claude-opus-5',
    'claude-opus-5-5',
    'claude-sonnet-5-5',
    'claude-haiku-5-5',
    'claude-fable-5',
    'claude-fable-5-1',
    'claude-mythos-5',
    'anthropic.claude-opus-4-7',
    'us.anthropic.claude-opus-4-7',
    'global.anthropic.claude-fable-5',
    'arn:aws:bedrock:us-east-1:123456789012:inference-profile/us.anthropic.claude-opus-4-8',
    'claude-opus-4-7@20260416',
  ])('gives %s, which refuses a thinking budget, adaptive thinking with xhigh', (model) => {
    expect(thinkingModeFor(model)).toEqual({ type: 'adaptive', xhigh: true });
  });

  it.each(['claude-opus-4-6', 'claude-sonnet-4-6', 'anthropic.claude-opus-4-6-v1', 'us.anthropic.claude-sonnet-4-6', 'claude-sonnet-4.6', 'claude-mythos-preview', 'anthropic.claude-mythos-preview'])(
    'gives %s, where a budget is deprecated, adaptive thinking without xhigh, a level it lacks',
    (model) => {
      expect(thinkingModeFor(model)).toEqual({ type: 'adaptive', xhigh: false });
    },
  );

  it.each([
    'claude-sonnet-4-5',
    'claude-sonnet-4-5-20250929',
    'claude-opus-4-5-20251101',
    'claude-haiku-4-5',
    'us.anthropic.claude-haiku-4-5-20251001-v1:0',
    'claude-opus-4-1-20250805',
    'claude-opus-4-20250514',
    'anthropic.claude-sonnet-4-20250514-v1:0',
    'claude-3-7-sonnet-20250219',
    'claude-3-7-sonnet-latest',
  ])('keeps the thinking budget for %s, which takes no adaptive thinking', (model) => {
    expect(thinkingModeFor(model)).toEqual({ type: 'budget' });
  });

  it('takes a Claude id of a family or version not seen yet for a newer generation', () => {
    expect(thinkingModeFor('claude-saga-6')).toEqual({ type: 'adaptive', xhigh: true });
    expect(thinkingModeFor('claude-opus-6-2')).toEqual({ type: 'adaptive', xhigh: true });
  });

  it('keeps the thinking budget for ids that name no Claude (another vendor’s Anthropic-compatible API, an application inference profile)', () => {
    expect(thinkingModeFor('kimi-k2-thinking')).toEqual({ type: 'budget' });
    expect(thinkingModeFor('arn:aws:bedrock:us-east-1:123456789012:application-inference-profile/a1b2c3d4e5f6')).toEqual({ type: 'budget' });
  });
});

describe('claudeSamplingRule', () => {
  it.each(['claude-opus-4-7', 'claude-opus-4-8', 'claude-opus-5', 'claude-sonnet-5', 'claude-sonnet-5-5', 'claude-haiku-5-5', 'claude-fable-5-1', 'claude-mythos-preview', 'global.anthropic.claude-opus-4-7', 'claude-opus-4-7@20260416'])(
    'says %s takes neither temperature nor top_p',
    (model) => {
      expect(claudeSamplingRule(model)).toBe('neither');
    },
  );

  it.each(['claude-opus-4-1-20250805', 'claude-opus-4-5', 'claude-opus-4-6', 'claude-sonnet-4-6', 'claude-sonnet-4-5-20250929', 'claude-haiku-4-5', 'us.anthropic.claude-opus-4-1-20250805-v1:0', 'claude-sonnet-4.5'])(
    'says %s takes one of the two, not both',
    (model) => {
      expect(claudeSamplingRule(model)).toBe('either');
    },
  );

  it.each(['claude-sonnet-4-20250514', 'claude-opus-4-20250514', 'claude-3-7-sonnet-20250219', 'gpt-4o', 'arn:aws:bedrock:us-east-1:123456789012:application-inference-profile/abc'])(
    'says %s takes both',
    (model) => {
      expect(claudeSamplingRule(model)).toBe('both');
    },
  );
});

describe("a chat client's reasoning effort sent to a Claude without thinking", () => {
  it('sends no thinking, which Claude 3.5 refuses with a 400, keeps max_tokens and names the effort as dropped', () => {
    const canonical = openAiChatProtocol.readRequest({ model: 'claude', max_tokens: 500, reasoning_effort: 'high', messages: [{ role: 'user', content: 'Think.' }] });
    const body = anthropicMessagesProtocol.writeRequest(canonical, 'anthropic.claude-3-5-sonnet-20240620-v1:0', NO_EXTRA_FEATURES);
    expect(body).not.toHaveProperty('thinking');
    expect(body.max_tokens).toBe(500);
    expect(canonical.dropped.list()).toContain('reasoning_effort');
  });
});
