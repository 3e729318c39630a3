import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAdminHarness, type AdminHarness, type ProjectView } from './admin-harness.ts';

describe('runAdminCommand: prices beyond tokens', () => {
  let admin: AdminHarness;

  beforeAll(async () => {
    admin = await startAdminHarness();
    await admin.ok({ command: 'project.create', projectId: 'units' });
    await admin.ok({ command: 'provider.set', projectId: 'units', provider: 'openai', apiKey: 'sk-upstream-units' });
  });
  afterAll(async () => {
    await admin?.close();
  });

  it('sets per-request, per-image, per-second, per-character and per-search-unit prices on a project model, shown when set', async () => {
    const result = await admin.ok<ProjectView>({
      command: 'model.allow',
      projectId: 'units',
      slug: 'openai/gpt-image-1',
      kind: 'image',
      inputMicrosPer1k: 5000,
      outputMicrosPer1k: 40000,
      requestMicros: 100,
      imageMicros: 40_000,
    });
    expect(result.models[0]).toMatchObject({ input_price_micros_per_1k: 5000, request_price_micros: 100, image_price_micros: 40_000, price_source: 'project' });
    expect(result.models[0]).not.toHaveProperty('video_second_price_micros');
  });

  it('keeps the unit prices not given again, and fills them from the previous project price', async () => {
    await admin.ok({ command: 'model.allow', projectId: 'units', slug: 'openai/whisper-1', kind: 'audio', audioSecondMicros: 100 });
    const result = await admin.ok<ProjectView>({ command: 'model.allow', projectId: 'units', slug: 'openai/whisper-1', requestMicros: 1 });
    expect(result.models.find((model) => model.slug === 'openai/whisper-1')).toMatchObject({ audio_second_price_micros: 100, request_price_micros: 1 });
  });

  it('sets unit prices on the organisation rate card, which a project model without its own prices uses', async () => {
    const card = await admin.ok<{ rates: Array<Record<string, unknown>> }>({
      command: 'ratecard.set',
      slug: 'openai/tts-1',
      inputMicrosPer1k: 0,
      outputMicrosPer1k: 0,
      characterMicrosPer1k: 15_000,
    });
    expect(card.rates.find((rate) => rate.slug === 'openai/tts-1')).toMatchObject({ character_price_micros_per_1k: 15_000 });
    const result = await admin.ok<ProjectView>({ command: 'model.allow', projectId: 'units', slug: 'openai/tts-1', kind: 'audio' });
    expect(result.models.find((model) => model.slug === 'openai/tts-1')).toMatchObject({ character_price_micros_per_1k: 15_000, price_source: 'organisation' });
  });

  it("starts a project price given in part from the organisation's price the model was billed at, not from zero", async () => {
    await admin.ok({ command: 'ratecard.set', slug: 'openai/gpt-4.1', inputMicrosPer1k: 2000, outputMicrosPer1k: 8000, cachedInputMicrosPer1k: 500 });
    await admin.ok({ command: 'model.allow', projectId: 'units', slug: 'openai/gpt-4.1' });
    const result = await admin.ok<ProjectView>({ command: 'model.allow', projectId: 'units', slug: 'openai/gpt-4.1', cacheWriteInputMicrosPer1k: 2500 });
    expect(result.models.find((model) => model.slug === 'openai/gpt-4.1')).toMatchObject({
      input_price_micros_per_1k: 2000,
      output_price_micros_per_1k: 8000,
      cached_input_price_micros_per_1k: 500,
      cache_write_input_price_micros_per_1k: 2500,
      price_source: 'project',
    });
  });

  it('refuses a unit price that is not a whole number of micro-USD', async () => {
    const refused = await admin.refused({ command: 'model.allow', projectId: 'units', slug: 'openai/sora-2', videoSecondMicros: 0.5 });
    expect(refused.status).toBe(400);
  });
});

describe('runAdminCommand: the dearest price', () => {
  let admin: AdminHarness;
  const bound = 'prices are at most 100000000 micro-USD (100 USD per 1,000 tokens, per 1,000 characters or per unit)';

  beforeAll(async () => {
    admin = await startAdminHarness();
    await admin.ok({ command: 'project.create', projectId: 'dear' });
    await admin.ok({ command: 'provider.set', projectId: 'dear', provider: 'openai', apiKey: 'sk-upstream-dear' });
  });
  afterAll(async () => {
    await admin?.close();
  });

  it('takes a price of 100,000,000 micro-USD, 100 USD per 1,000 tokens', async () => {
    const result = await admin.ok<ProjectView>({ command: 'model.allow', projectId: 'dear', slug: 'openai/gpt-4o', inputMicrosPer1k: 100_000_000, outputMicrosPer1k: 100_000_000 });
    expect(result.models[0]).toMatchObject({ input_price_micros_per_1k: 100_000_000, output_price_micros_per_1k: 100_000_000 });
  });

  it.each([
    ['model.allow', { command: 'model.allow', projectId: 'dear', slug: 'openai/o3', inputMicrosPer1k: 1, outputMicrosPer1k: 99_999_999_999_999 }, 'outputMicrosPer1k'],
    ['model.allow', { command: 'model.allow', projectId: 'dear', slug: 'openai/sora-2', videoSecondMicros: 100_000_001 }, 'videoSecondMicros'],
    ['ratecard.set', { command: 'ratecard.set', slug: 'openai/o3', inputMicrosPer1k: 100_000_001, outputMicrosPer1k: 1 }, 'inputMicrosPer1k'],
    ['ratecard.set', { command: 'ratecard.set', slug: 'openai/o3', inputMicrosPer1k: 1, outputMicrosPer1k: 1, cachedInputMicrosPer1k: 10 ** 12 }, 'cachedInputMicrosPer1k'],
  ])('refuses a dearer price on %s with 400, naming the bound, and stores nothing', async (_name, event, field) => {
    const refused = await admin.refused(event);

    expect(refused).toEqual({ status: 400, code: 'invalid_command', message: `${field}: ${bound}` });
    expect((await admin.ok<ProjectView>({ command: 'project.get', projectId: 'dear' })).models.map((model) => model.slug)).toEqual(['openai/gpt-4o']);
    expect((await admin.ok<{ rates: unknown[] }>({ command: 'ratecard.list' })).rates).toEqual([]);
  });
});
