import type { RateCardEntry } from '../../shared/core/project-config.ts';
import type { TokenUsage } from '../../shared/core/token-usage.ts';

/** A token usage of nothing but what the test sets: counted by the provider, not estimated. */
export function tokenUsage(overrides: Partial<TokenUsage>): TokenUsage {
  return { promptTokens: 0, completionTokens: 0, cachedTokens: 0, reasoningTokens: 0, estimated: false, ...overrides };
}

/** Claude Sonnet 4.5's list prices in micro-USD per 1,000 tokens: $3/M input, $0.30/M cache read, $3.75/M cache write, $15/M output. */
export const SONNET_PRICES: RateCardEntry = {
  slug: 'anthropic/claude-sonnet-4-5',
  inputPriceMicrosPer1k: 3_000,
  outputPriceMicrosPer1k: 15_000,
  cachedInputPriceMicrosPer1k: 300,
  cacheWriteInputPriceMicrosPer1k: 3_750,
};
