import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { priceUsage } from '../../shared/core/price-usage.ts';
import type { TokenUsage } from '../../shared/core/token-usage.ts';
import { rateCardEntrySchema, type RateCardEntry } from '../../shared/core/project-config.ts';

function usage(overrides: Partial<TokenUsage>): TokenUsage {
  return { promptTokens: 0, completionTokens: 0, cachedTokens: 0, reasoningTokens: 0, estimated: false, ...overrides };
}

/** Claude Sonnet's list prices in micro-USD per 1,000 tokens: $3/M input, $0.30/M cache read, $3.75/M cache write, $15/M output. */
const sonnet: RateCardEntry = {
  slug: 'anthropic/claude-sonnet-4-5',
  inputPriceMicrosPer1k: 3_000,
  outputPriceMicrosPer1k: 15_000,
  cachedInputPriceMicrosPer1k: 300,
  cacheWriteInputPriceMicrosPer1k: 3_750,
};

const tokenCount = fc.integer({ min: 0, max: 10_000_000 });
const price = fc.integer({ min: 0, max: 100_000_000 });
const optionalPrice = fc.option(price, { nil: undefined });

describe('priceUsage with cache writes', () => {
  it('charges cache reads at the cached price, cache writes at the cache-write price and the rest at the input price', () => {
    // The recorded prompt-cache response: input 3, cache creation 418, cache read 1111, output 33.
    const cost = priceUsage(usage({ promptTokens: 3 + 418 + 1_111, cachedTokens: 1_111, cacheWriteTokens: 418, completionTokens: 33 }), sonnet);
    expect(cost).toBe(3 * 3_000 + 418 * 3_750 + 1_111 * 300 + 33 * 15_000);
  });

  it('charges cache writes at the input price when the rate card has no cache-write price', () => {
    const { cacheWriteInputPriceMicrosPer1k: _none, ...withoutWritePrice } = sonnet;
    expect(priceUsage(usage({ promptTokens: 100, cacheWriteTokens: 60 }), withoutWritePrice)).toBe(100 * 3_000);
  });

  it('prices a usage without cache writes as before', () => {
    expect(priceUsage(usage({ promptTokens: 100, cachedTokens: 40, completionTokens: 5 }), sonnet)).toBe(60 * 3_000 + 40 * 300 + 5 * 15_000);
  });

  it('never charges a prompt token twice: writes are capped at the prompt tokens the reads leave', () => {
    expect(priceUsage(usage({ promptTokens: 10, cachedTokens: 8, cacheWriteTokens: 5 }), sonnet)).toBe(8 * 300 + 2 * 3_750);
  });

  it('is exactly the BigInt sum of the three prompt shares and the completion tokens times their prices', () => {
    fc.assert(
      fc.property(tokenCount, tokenCount, tokenCount, tokenCount, price, price, optionalPrice, optionalPrice, (prompt, read, write, completion, input, output, readPrice, writePrice) => {
        const rate: RateCardEntry = { slug: 's', inputPriceMicrosPer1k: input, outputPriceMicrosPer1k: output };
        if (readPrice !== undefined) rate.cachedInputPriceMicrosPer1k = readPrice;
        if (writePrice !== undefined) rate.cacheWriteInputPriceMicrosPer1k = writePrice;
        const readCounted = BigInt(Math.min(read, prompt));
        const writeCounted = BigInt(Math.min(write, prompt - Math.min(read, prompt)));
        const expected =
          (BigInt(prompt) - readCounted - writeCounted) * BigInt(input) +
          readCounted * BigInt(readPrice ?? input) +
          writeCounted * BigInt(writePrice ?? input) +
          BigInt(completion) * BigInt(output);
        fc.pre(expected <= BigInt(Number.MAX_SAFE_INTEGER));
        const cost = priceUsage(usage({ promptTokens: prompt, cachedTokens: read, cacheWriteTokens: write, completionTokens: completion }), rate);
        expect(BigInt(cost)).toBe(expected);
      }),
    );
  });
});

describe('rateCardEntrySchema cache-write price', () => {
  it('accepts an entry with a cache-write price and one without', () => {
    expect(rateCardEntrySchema.parse(sonnet)).toEqual(sonnet);
    expect(rateCardEntrySchema.parse({ slug: 's', inputPriceMicrosPer1k: 1, outputPriceMicrosPer1k: 2 })).toEqual({ slug: 's', inputPriceMicrosPer1k: 1, outputPriceMicrosPer1k: 2 });
  });

  it.each([-1, 1.5, '3750'])('refuses the cache-write price %j', (value) => {
    expect(rateCardEntrySchema.safeParse({ ...sonnet, cacheWriteInputPriceMicrosPer1k: value }).success).toBe(false);
  });
});
