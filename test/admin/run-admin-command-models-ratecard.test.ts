import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AdminHarness } from './admin-harness.ts';
import { startRateCardHarness, type RateList } from './run-admin-command-models-fixtures.ts';

describe('runAdminCommand: the organisation rate card', () => {
  let admin: AdminHarness;

  beforeAll(async () => {
    admin = await startRateCardHarness();
  });
  afterAll(async () => {
    await admin?.close();
  });

  it('lists the organisation rate card', async () => {
    const card = await admin.ok<RateList>({ command: 'ratecard.list' });

    expect([...card.rates].sort((a, b) => a.slug.localeCompare(b.slug))).toEqual([
      { slug: 'openai/gpt-4o', input_price_micros_per_1k: 2500, output_price_micros_per_1k: 10000, cached_input_price_micros_per_1k: null, cache_write_input_price_micros_per_1k: null, cache_write_1h_input_price_micros_per_1k: null },
      { slug: 'openai/gpt-4o-mini', input_price_micros_per_1k: 150, output_price_micros_per_1k: 600, cached_input_price_micros_per_1k: null, cache_write_input_price_micros_per_1k: null, cache_write_1h_input_price_micros_per_1k: null },
    ]);
  });

  it('clears the cached organisation rate card when a rate is set', async () => {
    const { orgRates } = admin.services.caches;
    const load = () => admin.projects.loadOrgRateCard();
    expect((await orgRates.get('org', load)).get('groq/llama')).toBeUndefined();

    await admin.ok({ command: 'ratecard.set', slug: 'groq/llama', inputMicrosPer1k: 50, outputMicrosPer1k: 80 });

    expect((await orgRates.get('org', load)).get('groq/llama')).toEqual({
      slug: 'groq/llama',
      inputPriceMicrosPer1k: 50,
      outputPriceMicrosPer1k: 80,
    });
  });
  it('keeps the cache and unit prices not given again when new token prices are set, as model allow does', async () => {
    await admin.ok({ command: 'ratecard.set', slug: 'anthropic/claude-haiku-4-5', inputMicrosPer1k: 1000, outputMicrosPer1k: 5000, cachedInputMicrosPer1k: 100, cacheWriteInputMicrosPer1k: 1250, requestMicros: 7 });

    const card = await admin.ok<RateList>({ command: 'ratecard.set', slug: 'anthropic/claude-haiku-4-5', inputMicrosPer1k: 800, outputMicrosPer1k: 4000, cacheWriteInputMicrosPer1k: 1000 });

    expect(card.rates.find((rate) => rate.slug === 'anthropic/claude-haiku-4-5')).toMatchObject({
      input_price_micros_per_1k: 800,
      output_price_micros_per_1k: 4000,
      cached_input_price_micros_per_1k: 100,
      cache_write_input_price_micros_per_1k: 1000,
      cache_write_1h_input_price_micros_per_1k: null,
      request_price_micros: 7,
    });
  });
});
