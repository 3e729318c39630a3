import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAdminHarness, type AdminHarness, type ProjectView } from './admin-harness.ts';

describe('runAdminCommand: long-context prices', () => {
  let admin: AdminHarness;
  const find = (view: ProjectView, slug: string) => view.models.find((entry) => entry.slug === slug);

  beforeAll(async () => {
    admin = await startAdminHarness();
    await admin.ok({ command: 'project.create', projectId: 'long' });
    await admin.ok({ command: 'provider.set', projectId: 'long', provider: 'anthropic', apiKey: 'sk-ant-upstream-long' });
  });
  afterAll(async () => {
    await admin?.close();
  });

  it("sets a model's long-context tier and shows it, the prices not given as null (derived from the standard ones)", async () => {
    const result = await admin.ok<ProjectView>({
      command: 'model.allow',
      projectId: 'long',
      slug: 'anthropic/claude-haiku-5-5',
      inputMicrosPer1k: 100,
      outputMicrosPer1k: 500,
      longContextAboveTokens: 100_000,
      longContextInputMicrosPer1k: 500,
      longContextOutputMicrosPer1k: 2_500,
    });
    expect(find(result, 'anthropic/claude-haiku-5-5')).toMatchObject({
      input_price_micros_per_1k: 100,
      long_context_above_tokens: 100_000,
      long_context_input_price_micros_per_1k: 500,
      long_context_output_price_micros_per_1k: 2_500,
      long_context_cached_input_price_micros_per_1k: null,
      price_source: 'project',
    });
  });

  it('keeps the tier when other prices change, fills a tier price given alone from the previous ones, and removes the tier with none', async () => {
    const slug = 'anthropic/claude-sonnet-4-5';
    await admin.ok({ command: 'model.allow', projectId: 'long', slug, inputMicrosPer1k: 3_000, outputMicrosPer1k: 15_000, longContextAboveTokens: 200_000, longContextInputMicrosPer1k: 6_000 });
    let result = await admin.ok<ProjectView>({ command: 'model.allow', projectId: 'long', slug, cachedInputMicrosPer1k: 300 });
    expect(find(result, slug)).toMatchObject({ cached_input_price_micros_per_1k: 300, long_context_above_tokens: 200_000, long_context_input_price_micros_per_1k: 6_000 });
    result = await admin.ok<ProjectView>({ command: 'model.allow', projectId: 'long', slug, longContextOutputMicrosPer1k: 22_500 });
    expect(find(result, slug)).toMatchObject({ input_price_micros_per_1k: 3_000, long_context_input_price_micros_per_1k: 6_000, long_context_output_price_micros_per_1k: 22_500 });
    result = await admin.ok<ProjectView>({ command: 'model.allow', projectId: 'long', slug, longContextAboveTokens: 'none' });
    expect(find(result, slug)).toMatchObject({ input_price_micros_per_1k: 3_000, cached_input_price_micros_per_1k: 300 });
    expect(find(result, slug)).not.toHaveProperty('long_context_above_tokens');
    expect(find(result, slug)).not.toHaveProperty('long_context_input_price_micros_per_1k');
  });

  it('refuses long-context prices without a threshold, and with none, rather than store prices that never apply', async () => {
    const withoutThreshold = await admin.refused({ command: 'model.allow', projectId: 'long', slug: 'anthropic/claude-opus-4-1', longContextInputMicrosPer1k: 30_000 });
    expect(withoutThreshold.status).toBe(400);
    expect(withoutThreshold.message).toContain('--long-context-above-tokens N');
    const withNone = await admin.refused({ command: 'model.allow', projectId: 'long', slug: 'anthropic/claude-opus-4-1', longContextAboveTokens: 'none', longContextInputMicrosPer1k: 30_000 });
    expect(withNone.status).toBe(400);
    const ratecard = await admin.refused({ command: 'ratecard.set', slug: 'gemini/gemini-2.5-pro', inputMicrosPer1k: 1_250, outputMicrosPer1k: 10_000, longContextOutputMicrosPer1k: 15_000 });
    expect(ratecard.status).toBe(400);
  });

  it("sets a tier on the organisation's rate card, listed with it and kept when the standard prices are set again", async () => {
    await admin.ok({ command: 'ratecard.set', slug: 'gemini/gemini-2.5-pro', inputMicrosPer1k: 1_250, outputMicrosPer1k: 10_000, longContextAboveTokens: 200_000, longContextInputMicrosPer1k: 2_500 });
    const card = await admin.ok<{ rates: Array<Record<string, unknown>> }>({ command: 'ratecard.set', slug: 'gemini/gemini-2.5-pro', inputMicrosPer1k: 1_250, outputMicrosPer1k: 10_000 });
    expect(card.rates.find((rate) => rate.slug === 'gemini/gemini-2.5-pro')).toMatchObject({ long_context_above_tokens: 200_000, long_context_input_price_micros_per_1k: 2_500, long_context_output_price_micros_per_1k: null });
  });

  it('refuses a threshold that is not a positive whole number of tokens', async () => {
    const refused = await admin.refused({ command: 'model.allow', projectId: 'long', slug: 'anthropic/claude-opus-4-1', longContextAboveTokens: 0 });
    expect(refused.status).toBe(400);
  });
});
