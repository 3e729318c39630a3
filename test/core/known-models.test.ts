import { describe, expect, it } from 'vitest';
import { effectiveModelLimits, findKnownModelLimits } from '../../shared/core/known-models.ts';

const entry = (model: string, extra: Record<string, number> = {}) => ({ slug: `p/${model}`, provider: 'p', model, kind: 'chat' as const, createdAt: '2026-01-01T00:00:00.000Z', ...extra });

describe('findKnownModelLimits', () => {
  it.each([
    ['gpt-4o-mini', 128_000],
    ['openai/gpt-4o-mini', 128_000],
    ['gpt-4o-mini-2024-07-18', 128_000],
    ['claude-haiku-4-5-20251001', 200_000],
    ['anthropic.claude-sonnet-4-5-20250929-v1:0', 200_000],
    ['us.anthropic.claude-haiku-4-5-20251001-v1:0', 200_000],
    ['arn:aws:bedrock:us-east-1::foundation-model/anthropic.claude-opus-4-5-20251101-v1:0', 200_000],
    ['claude-opus-4-6', 1_000_000],
    ['us.anthropic.claude-opus-4-6-v1', 1_000_000],
    // OpenRouter's ids name Claude's version with a dot.
    ['anthropic/claude-sonnet-4.5', 200_000],
    ['claude-opus-4.6', 1_000_000],
  ])('knows %s', (model, contextLength) => {
    expect(findKnownModelLimits(model)?.contextLength).toBe(contextLength);
  });

  it.each(['claude-sonnet-4-6', 'claude-opus-4-7', 'us.anthropic.claude-opus-4-7', 'claude-opus-4-8', 'claude-sonnet-5', 'claude-opus-5', 'claude-sonnet-5-5', 'claude-opus-5-5', 'claude-haiku-5-5', 'claude-fable-5-1'])(
    'knows %s, a Claude newer than 4.6, by its 128K output (without it, a stream without a cap got 4,096)',
    (model) => {
      expect(findKnownModelLimits(model)).toEqual({ contextLength: 1_000_000, maxOutputTokens: 128_000 });
    },
  );

  it('does not take a model for another whose id it merely starts with', () => {
    expect(findKnownModelLimits('gpt-4o-mini-tts')).toBeUndefined();
    expect(findKnownModelLimits('my-gpt-4o')).toBeUndefined();
  });
});

describe('effectiveModelLimits', () => {
  it("prefers the admin's values, then the table's, and leaves an unknown model's limits null", () => {
    expect(effectiveModelLimits(entry('gpt-4o', { contextLength: 50_000 }))).toEqual({ contextLength: 50_000, maxOutputTokens: 16_384 });
    expect(effectiveModelLimits(entry('in-house-llm'))).toEqual({ contextLength: null, maxOutputTokens: null });
  });
});
