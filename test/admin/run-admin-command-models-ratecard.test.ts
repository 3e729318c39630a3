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
});
