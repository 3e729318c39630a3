import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { addUnits, billedSeconds, hasUnits } from '../../shared/core/billed-units.ts';
import { priceUsage } from '../../shared/core/price-usage.ts';
import type { RateCardEntry } from '../../shared/core/project-config.ts';
import type { TokenUsage } from '../../shared/core/token-usage.ts';

const NO_TOKENS: TokenUsage = { promptTokens: 0, completionTokens: 0, cachedTokens: 0, reasoningTokens: 0, estimated: false };
const RATE: RateCardEntry = {
  slug: 'openai/any',
  inputPriceMicrosPer1k: 0,
  outputPriceMicrosPer1k: 0,
  requestPriceMicros: 500,
  imagePriceMicros: 40_000,
  audioSecondPriceMicros: 100,
  characterPriceMicrosPer1k: 15_000,
  searchUnitPriceMicros: 2_000,
  videoSecondPriceMicros: 100_000,
};

describe('priceUsage beyond tokens', () => {
  it('charges a price of N micro-USD per unit as N × 1000 nano-USD per unit', () => {
    expect(priceUsage({ ...NO_TOKENS, units: { requests: 1 } }, RATE)).toBe(500_000);
    expect(priceUsage({ ...NO_TOKENS, units: { images: 2 } }, RATE)).toBe(80_000_000);
    expect(priceUsage({ ...NO_TOKENS, units: { audioSeconds: 37 } }, RATE)).toBe(3_700_000);
    expect(priceUsage({ ...NO_TOKENS, units: { searchUnits: 3 } }, RATE)).toBe(6_000_000);
    expect(priceUsage({ ...NO_TOKENS, units: { videoSeconds: 8 } }, RATE)).toBe(800_000_000);
  });

  it('charges characters per 1,000 like tokens: N micro-USD per 1,000 is N nano-USD per character', () => {
    expect(priceUsage({ ...NO_TOKENS, units: { characters: 1_234 } }, RATE)).toBe(1_234 * 15_000);
  });

  it('adds the units to the tokens', () => {
    const rate: RateCardEntry = { ...RATE, inputPriceMicrosPer1k: 20, outputPriceMicrosPer1k: 40 };
    expect(priceUsage({ ...NO_TOKENS, promptTokens: 100, completionTokens: 10, units: { requests: 1, images: 1 } }, rate)).toBe(100 * 20 + 10 * 40 + 500_000 + 40_000_000);
  });

  it('bills nothing for a unit the rate card prices at nothing', () => {
    expect(priceUsage({ ...NO_TOKENS, units: { requests: 1, images: 4, videoSeconds: 12 } }, { slug: 's', inputPriceMicrosPer1k: 150, outputPriceMicrosPer1k: 600 })).toBe(0);
  });

  it('is exactly the integer sum of units times prices', () => {
    const count = fc.integer({ min: 0, max: 100_000 });
    const micros = fc.integer({ min: 0, max: 1_000_000 });
    fc.assert(
      fc.property(count, count, count, micros, micros, micros, (images, seconds, characters, imagePrice, secondPrice, characterPrice) => {
        const rate: RateCardEntry = { slug: 's', inputPriceMicrosPer1k: 0, outputPriceMicrosPer1k: 0, imagePriceMicros: imagePrice, audioSecondPriceMicros: secondPrice, characterPriceMicrosPer1k: characterPrice };
        const expected = BigInt(images) * BigInt(imagePrice) * 1000n + BigInt(seconds) * BigInt(secondPrice) * 1000n + BigInt(characters) * BigInt(characterPrice);
        expect(BigInt(priceUsage({ ...NO_TOKENS, units: { images, audioSeconds: seconds, characters } }, rate))).toBe(expected);
      }),
    );
  });
});

describe('billed units', () => {
  it('adds units, leaving out those that stay at zero', () => {
    expect(addUnits({ images: 2 }, { requests: 1, images: 1 })).toEqual({ requests: 1, images: 3 });
    expect(addUnits(undefined, { videoSeconds: 0 })).toEqual({});
  });

  it('tells units billed from none', () => {
    expect(hasUnits({ images: 0 })).toBe(false);
    expect(hasUnits(undefined)).toBe(false);
    expect(hasUnits({ characters: 3 })).toBe(true);
  });

  it('bills a started second as a whole one', () => {
    expect(billedSeconds(36.709999084472656)).toBe(37);
    expect(billedSeconds(4)).toBe(4);
    expect(billedSeconds(-1)).toBe(0);
    expect(billedSeconds(Number.NaN)).toBe(0);
  });
});
