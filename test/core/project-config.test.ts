import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { effectiveRate, splitModelSlug, type ProjectConfig, type RateCardEntry } from '../../shared/core/project-config.ts';

function configWithRates(rates: RateCardEntry[]): ProjectConfig {
  return {
    project: {
      projectId: 'demo',
      name: 'Demo',
      plan: 'active',
      usageInjection: false,
      failover: false,
      mcp: false,
      createdAt: '2025-01-01T00:00:00.000Z',
      updatedAt: '2025-01-01T00:00:00.000Z',
    },
    providers: new Map(),
    models: [],
    rates: new Map(rates.map((rate) => [rate.slug, rate])),
  };
}

const SLUG = 'openai/gpt-4o-mini';
const projectRate: RateCardEntry = { slug: SLUG, inputPriceMicrosPer1k: 100, outputPriceMicrosPer1k: 400 };
const orgRate: RateCardEntry = { slug: SLUG, inputPriceMicrosPer1k: 150, outputPriceMicrosPer1k: 600 };

describe('effectiveRate', () => {
  it('uses the project override when there is one, even over an organisation rate', () => {
    expect(effectiveRate(SLUG, configWithRates([projectRate]), new Map([[SLUG, orgRate]]))).toEqual(projectRate);
  });

  it('falls back to the organisation default', () => {
    expect(effectiveRate(SLUG, configWithRates([]), new Map([[SLUG, orgRate]]))).toEqual(orgRate);
  });

  it('prices an unknown model at zero', () => {
    expect(effectiveRate(SLUG, configWithRates([]), new Map())).toEqual({
      slug: SLUG,
      inputPriceMicrosPer1k: 0,
      outputPriceMicrosPer1k: 0,
    });
  });

  it('does not take the rate of another slug', () => {
    const other: RateCardEntry = { slug: 'openai/gpt-4o', inputPriceMicrosPer1k: 2500, outputPriceMicrosPer1k: 10000 };
    expect(effectiveRate(SLUG, configWithRates([other]), new Map([[other.slug, other]])).inputPriceMicrosPer1k).toBe(0);
  });
});

describe('splitModelSlug', () => {
  it('splits at the first slash only, keeping slashes in the model id', () => {
    expect(splitModelSlug('openrouter/openai/gpt-4o-mini')).toEqual({ provider: 'openrouter', model: 'openai/gpt-4o-mini' });
  });

  it('splits a plain provider/model slug', () => {
    expect(splitModelSlug('groq/llama-3.1-8b-instant')).toEqual({ provider: 'groq', model: 'llama-3.1-8b-instant' });
  });

  it.each([['gpt-4o'], ['/gpt-4o'], ['openai/'], ['/'], ['']])('returns undefined for %j', (slug) => {
    expect(splitModelSlug(slug)).toBeUndefined();
  });

  it('rejoins to the original slug for any non-empty provider and model', () => {
    fc.assert(
      fc.property(
        fc.string({ minLength: 1 }).filter((s) => !s.includes('/')),
        fc.string({ minLength: 1 }),
        (providerName, model) => {
          const split = splitModelSlug(`${providerName}/${model}`);
          expect(split).toEqual({ provider: providerName, model });
        },
      ),
    );
  });
});
