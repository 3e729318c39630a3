import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { oneHourCacheWritePrice, priceUsage } from '../../shared/core/price-usage.ts';
import { rateCardEntrySchema, type RateCardEntry } from '../../shared/core/project-config.ts';
import { SONNET_PRICES, tokenUsage } from '../support/token-usage.ts';

const usage = tokenUsage;

const sonnet = SONNET_PRICES;

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

describe('priceUsage with one-hour cache writes', () => {
  it('charges one-hour writes at twice the input price when the rate card names no one-hour price, as Anthropic bills them', () => {
    // 1,000 written for five minutes (1.25× input), 2,000 for an hour (2× input).
    const cost = priceUsage(usage({ promptTokens: 5 + 3_000, cacheWriteTokens: 3_000, cacheWrite1hTokens: 2_000, completionTokens: 20 }), sonnet);
    expect(cost).toBe(5 * 3_000 + 1_000 * 3_750 + 2_000 * 6_000 + 20 * 15_000);
  });

  it("charges them at the rate card's one-hour price when it has one", () => {
    const rate = { ...sonnet, cacheWrite1hInputPriceMicrosPer1k: 5_000 };
    expect(priceUsage(usage({ promptTokens: 3_000, cacheWriteTokens: 3_000, cacheWrite1hTokens: 2_000 }), rate)).toBe(1_000 * 3_750 + 2_000 * 5_000);
  });

  it('never charges more one-hour writes than writes', () => {
    expect(priceUsage(usage({ promptTokens: 100, cacheWriteTokens: 10, cacheWrite1hTokens: 50 }), sonnet)).toBe(90 * 3_000 + 10 * 6_000);
  });

  it('prices a usage without the split (every record before it) as before', () => {
    expect(priceUsage(usage({ promptTokens: 100, cacheWriteTokens: 60 }), sonnet)).toBe(40 * 3_000 + 60 * 3_750);
  });

  it('is the BigInt sum of the four prompt shares at their prices', () => {
    fc.assert(
      fc.property(tokenCount, tokenCount, tokenCount, price, optionalPrice, optionalPrice, (prompt, write, hour, input, writePrice, hourPrice) => {
        const rate: RateCardEntry = { slug: 's', inputPriceMicrosPer1k: input, outputPriceMicrosPer1k: 0 };
        if (writePrice !== undefined) rate.cacheWriteInputPriceMicrosPer1k = writePrice;
        if (hourPrice !== undefined) rate.cacheWrite1hInputPriceMicrosPer1k = hourPrice;
        const written = Math.min(write, prompt);
        const hourWritten = Math.min(hour, written);
        const expected =
          BigInt(prompt - written) * BigInt(input) +
          BigInt(written - hourWritten) * BigInt(writePrice ?? input) +
          BigInt(hourWritten) * BigInt(hourPrice ?? input * 2);
        fc.pre(expected <= BigInt(Number.MAX_SAFE_INTEGER));
        expect(BigInt(priceUsage(usage({ promptTokens: prompt, cacheWriteTokens: write, cacheWrite1hTokens: hour }), rate))).toBe(expected);
      }),
    );
  });
});

describe('oneHourCacheWritePrice', () => {
  it("is the rate card's own, else twice its input price", () => {
    expect(oneHourCacheWritePrice(sonnet)).toBe(6_000);
    expect(oneHourCacheWritePrice({ ...sonnet, cacheWrite1hInputPriceMicrosPer1k: 0 })).toBe(0);
  });
});

describe('rateCardEntrySchema cache-write price', () => {
  it('keeps a one-hour cache-write price, and reads entries stored before it', () => {
    expect(rateCardEntrySchema.parse({ ...sonnet, cacheWrite1hInputPriceMicrosPer1k: 6_000 })).toEqual({ ...sonnet, cacheWrite1hInputPriceMicrosPer1k: 6_000 });
    expect(rateCardEntrySchema.parse(sonnet)).toEqual(sonnet);
  });

  it('accepts an entry with a cache-write price and one without', () => {
    expect(rateCardEntrySchema.parse(sonnet)).toEqual(sonnet);
    expect(rateCardEntrySchema.parse({ slug: 's', inputPriceMicrosPer1k: 1, outputPriceMicrosPer1k: 2 })).toEqual({ slug: 's', inputPriceMicrosPer1k: 1, outputPriceMicrosPer1k: 2 });
  });

  it.each([-1, 1.5, '3750'])('refuses the cache-write price %j', (value) => {
    expect(rateCardEntrySchema.safeParse({ ...sonnet, cacheWriteInputPriceMicrosPer1k: value }).success).toBe(false);
  });
});
