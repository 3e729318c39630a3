import { describe, expect, it } from 'vitest';
import { thinkingBudgetBound } from '../../../shared/protocols/anthropic-messages/reasoning-effort-budget.ts';

describe('thinkingBudgetBound', () => {
  it("is the budget of a chat client's reasoning_effort, or of OpenRouter's reasoning effort, budget or enabled", () => {
    expect(thinkingBudgetBound('high', undefined)).toBe(16_384);
    expect(thinkingBudgetBound(undefined, { effort: 'low' })).toBe(1_024);
    expect(thinkingBudgetBound(undefined, { max_tokens: 6_000 })).toBe(6_000);
    expect(thinkingBudgetBound(undefined, { enabled: true })).toBe(4_096);
  });

  it('takes the largest where several are sent, so a reservation is never short', () => {
    expect(thinkingBudgetBound('low', { max_tokens: 20_000, effort: 'medium' })).toBe(20_000);
  });

  it('is none without reasoning settings, or with ones that ask for no thinking', () => {
    expect(thinkingBudgetBound(undefined, undefined)).toBeUndefined();
    expect(thinkingBudgetBound(null, null)).toBeUndefined();
    expect(thinkingBudgetBound('none', { enabled: false })).toBeUndefined();
  });
});
