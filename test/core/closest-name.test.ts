import { describe, expect, it } from 'vitest';
import { closestName } from '../../shared/core/closest-name.ts';

const names = ['openai/gpt-4o-mini', 'openai/gpt-4o', 'fast', 'gpt-4o-mini', 'gpt-4o', 'anthropic/claude-sonnet-4-5', 'claude-sonnet-4-5'];

describe('closestName', () => {
  it('finds the name typed in another case', () => {
    expect(closestName('OpenAI/GPT-4o-mini', names)).toBe('openai/gpt-4o-mini');
  });

  it('finds the one name a typo or two away', () => {
    expect(closestName('claude-sonet-4-5', names)).toBe('claude-sonnet-4-5');
    expect(closestName('anthropic/claude-sonnet-4.5', names)).toBe('anthropic/claude-sonnet-4-5');
  });

  it('counts two neighbouring letters swapped as one typo', () => {
    expect(closestName('fsat', names)).toBe('fast');
    expect(closestName('calude-sonnet-4-5', names)).toBe('claude-sonnet-4-5');
  });

  it('suggests nothing when two names are as close, or none is close enough', () => {
    expect(closestName('gpt-4o-mino', ['gpt-4o-mini', 'gpt-4o-mina'])).toBeUndefined();
    expect(closestName('gemini-2.5-pro', names)).toBeUndefined();
    expect(closestName('slow', names)).toBeUndefined();
    expect(closestName('fat', names)).toBe('fast');
  });
});
