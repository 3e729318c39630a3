import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { longContextRate, rateForPrompt } from '../../shared/core/long-context-prices.ts';
import { priceUsage } from '../../shared/core/price-usage.ts';
import type { RateCardEntry } from '../../shared/core/project-config.ts';
import { SONNET_PRICES, tokenUsage } from '../support/token-usage.ts';

const usage = tokenUsage;

/** Claude Sonnet 4.5 with the 1M window (Anthropic's prices): above 200K prompt tokens, input $6/M and output $22.50/M. */
const sonnet: RateCardEntry = {
  ...SONNET_PRICES,
  longContextAboveTokens: 200_000,
  longContextInputPriceMicrosPer1k: 6_000,
  longContextOutputPriceMicrosPer1k: 22_500,
};

/** Claude Haiku 5.5 (its page): $0.10 / $0.50 per M up to 100K prompt tokens, $0.50 / $2.50 above, cache reads $0.01 / $0.05. */
const haiku: RateCardEntry = {
  slug: 'anthropic/claude-haiku-5-5',
  inputPriceMicrosPer1k: 100,
  outputPriceMicrosPer1k: 500,
  cachedInputPriceMicrosPer1k: 10,
  longContextAboveTokens: 100_000,
  longContextInputPriceMicrosPer1k: 500,
  longContextOutputPriceMicrosPer1k: 2_500,
  longContextCachedInputPriceMicrosPer1k: 50,
};

describe('long-context prices', () => {
  it('bills a prompt of exactly the threshold at the standard prices, and one token more at the long-context prices, all of it', () => {
    expect(priceUsage(usage({ promptTokens: 200_000, completionTokens: 1_000 }), sonnet)).toBe(200_000 * 3_000 + 1_000 * 15_000);
    expect(priceUsage(usage({ promptTokens: 200_001, completionTokens: 1_000 }), sonnet)).toBe(200_001 * 6_000 + 1_000 * 22_500);
  });

  it('counts cache reads and writes in the prompt size, as Anthropic does (input + cache creation + cache read)', () => {
    const turn = usage({ promptTokens: 150_000, cachedTokens: 140_000, cacheWriteTokens: 5_000, completionTokens: 200 });
    // 5,000 uncached at $0.50/M, 140,000 read at $0.05/M, 5,000 written at the long input price (the rate card sets no write price), 200 out at $2.50/M.
    expect(priceUsage(turn, haiku)).toBe(5_000 * 500 + 140_000 * 50 + 5_000 * 500 + 200 * 2_500);
  });

  it('scales the cache prices it is not given as the input price scales, and leaves the one-hour default to follow the input price', () => {
    expect(longContextRate(sonnet)).toEqual({
      slug: 'anthropic/claude-sonnet-4-5',
      inputPriceMicrosPer1k: 6_000,
      outputPriceMicrosPer1k: 22_500,
      cachedInputPriceMicrosPer1k: 600,
      cacheWriteInputPriceMicrosPer1k: 7_500,
    });
    // A one-hour write above the threshold: twice the long input price, Anthropic's $12/M.
    expect(priceUsage(usage({ promptTokens: 300_000, cacheWriteTokens: 300_000, cacheWrite1hTokens: 300_000 }), sonnet)).toBe(300_000 * 12_000);
  });

  it('keeps the standard input and output prices where the tier sets only its threshold, and the prices beyond tokens always', () => {
    const tierOfOutputOnly: RateCardEntry = { slug: 'x/y', inputPriceMicrosPer1k: 1_250, outputPriceMicrosPer1k: 10_000, requestPriceMicros: 7, longContextAboveTokens: 10, longContextOutputPriceMicrosPer1k: 15_000 };
    expect(longContextRate(tierOfOutputOnly)).toEqual({ slug: 'x/y', inputPriceMicrosPer1k: 1_250, outputPriceMicrosPer1k: 15_000, requestPriceMicros: 7 });
  });

  it('rounds a scaled cache price to the nearest micro-USD per 1,000 tokens', () => {
    const rate: RateCardEntry = { slug: 'x/y', inputPriceMicrosPer1k: 3, outputPriceMicrosPer1k: 0, cachedInputPriceMicrosPer1k: 1, longContextAboveTokens: 1, longContextInputPriceMicrosPer1k: 5 };
    expect(longContextRate(rate).cachedInputPriceMicrosPer1k).toBe(2); // 5/3 = 1.67
    expect(longContextRate({ ...rate, longContextInputPriceMicrosPer1k: 4 }).cachedInputPriceMicrosPer1k).toBe(1); // 4/3 = 1.33
  });

  it('leaves a rate without a tier as it is, whatever the prompt', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 10_000_000 }), (promptTokens) => {
        const plain: RateCardEntry = { slug: 'x/y', inputPriceMicrosPer1k: 3_000, outputPriceMicrosPer1k: 15_000 };
        expect(rateForPrompt(plain, promptTokens)).toBe(plain);
      }),
    );
  });

  it('never bills a long prompt less than the standard prices would when every long price is at least its standard one', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 2_000_000 }), fc.integer({ min: 0, max: 2_000_000 }), fc.integer({ min: 0, max: 100_000 }), (prompt, cached, completion) => {
        const turn = usage({ promptTokens: prompt, cachedTokens: Math.min(cached, prompt), completionTokens: completion });
        expect(priceUsage(turn, sonnet)).toBeGreaterThanOrEqual(priceUsage(turn, SONNET_PRICES));
      }),
    );
  });
});
