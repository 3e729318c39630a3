import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MAX_PRICE_MICROS } from '../../shared/core/money-limits.ts';
import { costBeyondRecord, exactCost, formatUsd, MAX_RECORD_COST_NANOS, parseUsdToNanos, priceUsage, usdAmountProblem } from '../../shared/core/price-usage.ts';
import type { RateCardEntry } from '../../shared/core/project-config.ts';
import { tokenUsage } from '../support/token-usage.ts';

const usage = tokenUsage;

const tokenCount = fc.integer({ min: 0, max: 10_000_000 });
const price = fc.integer({ min: 0, max: 100_000_000 });

describe('priceUsage', () => {
  it('charges N nano-USD per token for a price of N micro-USD per 1,000 tokens', () => {
    const rate: RateCardEntry = { slug: 'openai/gpt-4o-mini', inputPriceMicrosPer1k: 150, outputPriceMicrosPer1k: 600 };
    expect(priceUsage(usage({ promptTokens: 100, completionTokens: 20 }), rate)).toBe(100 * 150 + 20 * 600);
  });

  it('charges cached prompt tokens at the cached price and the rest at the input price', () => {
    const rate: RateCardEntry = { slug: 's', inputPriceMicrosPer1k: 150, outputPriceMicrosPer1k: 600, cachedInputPriceMicrosPer1k: 75 };
    expect(priceUsage(usage({ promptTokens: 10_122, cachedTokens: 9_984, completionTokens: 1 }), rate)).toBe(138 * 150 + 9_984 * 75 + 600);
  });

  it('charges cached prompt tokens at the input price when the rate card has no cached price', () => {
    const rate: RateCardEntry = { slug: 's', inputPriceMicrosPer1k: 150, outputPriceMicrosPer1k: 600 };
    expect(priceUsage(usage({ promptTokens: 10, cachedTokens: 8 }), rate)).toBe(1_500);
  });

  it('is exactly the BigInt sum of token counts times prices, cached tokens capped at the prompt tokens', () => {
    fc.assert(
      fc.property(tokenCount, tokenCount, tokenCount, price, price, fc.option(price, { nil: undefined }), (prompt, cached, completion, input, output, cachedPrice) => {
        const rate: RateCardEntry = { slug: 's', inputPriceMicrosPer1k: input, outputPriceMicrosPer1k: output };
        if (cachedPrice !== undefined) rate.cachedInputPriceMicrosPer1k = cachedPrice;
        const cachedCounted = BigInt(Math.min(cached, prompt));
        const expected =
          (BigInt(prompt) - cachedCounted) * BigInt(input) +
          cachedCounted * BigInt(cachedPrice ?? input) +
          BigInt(completion) * BigInt(output);
        fc.pre(expected <= BigInt(Number.MAX_SAFE_INTEGER));
        const cost = priceUsage(usage({ promptTokens: prompt, cachedTokens: cached, completionTokens: completion }), rate);
        expect(Number.isSafeInteger(cost)).toBe(true);
        expect(BigInt(cost)).toBe(expected);
      }),
    );
  });

  it('counts at most the prompt tokens as cached', () => {
    const rate: RateCardEntry = { slug: 's', inputPriceMicrosPer1k: 1_000, outputPriceMicrosPer1k: 0, cachedInputPriceMicrosPer1k: 10 };
    expect(priceUsage(usage({ promptTokens: 5, cachedTokens: 50 }), rate)).toBe(50);
  });

  it('does not charge reasoning tokens a second time: they are inside the completion tokens', () => {
    const rate: RateCardEntry = { slug: 's', inputPriceMicrosPer1k: 0, outputPriceMicrosPer1k: 4_400 };
    expect(priceUsage(usage({ completionTokens: 87, reasoningTokens: 64 }), rate)).toBe(87 * 4_400);
  });

  it('holds a cost beyond the exactly representable integers at the largest one, never throwing or rounding below it', () => {
    const rate: RateCardEntry = { slug: 's', inputPriceMicrosPer1k: 99_999_999_999_999, outputPriceMicrosPer1k: 99_999_999_999_999 };
    const answer = usage({ promptTokens: 300, completionTokens: 20 });

    expect(priceUsage(answer, rate)).toBe(MAX_RECORD_COST_NANOS);
    expect(exactCost(answer, rate)).toBe(320n * 99_999_999_999_999n);
    expect(costBeyondRecord(exactCost(answer, rate))).toBe(true);
  });

  it('prices about 90 million tokens exactly at the dearest price the rate card takes', () => {
    const rate: RateCardEntry = { slug: 's', inputPriceMicrosPer1k: MAX_PRICE_MICROS, outputPriceMicrosPer1k: MAX_PRICE_MICROS };
    const cost = exactCost(usage({ promptTokens: 80_000_000, completionTokens: 10_000_000 }), rate);

    expect(costBeyondRecord(cost)).toBe(false);
    expect(priceUsage(usage({ promptTokens: 80_000_000, completionTokens: 10_000_000 }), rate)).toBe(9_000_000_000_000_000);
  });
});

describe('usdAmountProblem', () => {
  it.each(['0', '25', '0.5', '123456789.123456789', '999999999.999999999'])('takes "%s" as a balance or credit', (text) => {
    expect(usdAmountProblem(text)).toBeUndefined();
  });

  it('names the bound of an amount of a billion USD or more', () => {
    expect(usdAmountProblem('1000000000')).toBe('amounts are at most 999999999.999999999 USD');
  });

  it('names the format of an amount that is not a USD decimal', () => {
    expect(usdAmountProblem('1.0000000001')).toBe('amounts are USD decimals with at most 9 decimal places, e.g. 25 or 0.5');
  });
});

describe('formatUsd', () => {
  it.each([
    [0, '0'],
    [1, '0.000000001'],
    [150, '0.00000015'],
    [1_500, '0.0000015'],
    [27_000, '0.000027'],
    [1_000_000_000, '1'],
    [12_500_000_000, '12.5'],
    [Number.MAX_SAFE_INTEGER, '9007199.254740991'],
    [999_999_999_999_999_999n, '999999999.999999999'],
    [-2n, '-0.000000002'],
  ])('renders %s nano-USD as "%s"', (nanos, expected) => {
    expect(formatUsd(nanos)).toBe(expected);
  });

  it('never uses exponent notation and parses back to the same nano-USD', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: Number.MAX_SAFE_INTEGER }), (nanos) => {
        const text = formatUsd(nanos);
        expect(text).toMatch(/^(0|[1-9]\d*)(\.\d*[1-9])?$/);
        expect(parseUsdToNanos(text)).toBe(BigInt(nanos));
      }),
    );
  });
});

describe('parseUsdToNanos', () => {
  it.each([
    ['12.5', 12_500_000_000n],
    ['0.000000001', 1n],
    ['0', 0n],
    ['7', 7_000_000_000n],
    [' 0.25 ', 250_000_000n],
    ['123456789.123456789', 123_456_789_123_456_789n],
  ])('reads "%s" as %s nano-USD, exactly beyond 2^53 too', (text, nanos) => {
    expect(parseUsdToNanos(text)).toBe(nanos);
  });

  it.each(['-1', '-0.5', '0.0000000001', '1.2345678901', '1e-7', 'abc', '12a', '1.', '.5', '', '1,5'])(
    'rejects "%s"',
    (text) => {
      expect(parseUsdToNanos(text)).toBeUndefined();
    },
  );
});
