import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { START_TIME, startAdminHarness, type AdminHarness, type ProjectView } from './admin-harness.ts';

interface RateList {
  rates: Array<{ slug: string; input_price_micros_per_1k: number; output_price_micros_per_1k: number }>;
}

describe('runAdminCommand: models and the rate card', () => {
  let admin: AdminHarness;

  beforeAll(async () => {
    admin = await startAdminHarness();
    // Organisation prices for two models; a project may override them.
    await admin.ok({ command: 'ratecard.set', slug: 'openai/gpt-4o', inputMicrosPer1k: 2500, outputMicrosPer1k: 10000 });
    await admin.ok({ command: 'ratecard.set', slug: 'openai/gpt-4o-mini', inputMicrosPer1k: 150, outputMicrosPer1k: 600 });
  });
  afterAll(async () => {
    await admin?.close();
  });

  async function projectWithOpenai(projectId: string): Promise<void> {
    await admin.ok({ command: 'project.create', projectId });
    await admin.ok({ command: 'provider.set', projectId, provider: 'openai', apiKey: 'sk-upstream-models' });
  }

  function model(view: ProjectView, slug: string) {
    return view.models.find((entry) => entry.slug === slug);
  }

  it('lists the organisation rate card', async () => {
    const card = await admin.ok<RateList>({ command: 'ratecard.list' });

    expect([...card.rates].sort((a, b) => a.slug.localeCompare(b.slug))).toEqual([
      { slug: 'openai/gpt-4o', input_price_micros_per_1k: 2500, output_price_micros_per_1k: 10000, cached_input_price_micros_per_1k: null, cache_write_input_price_micros_per_1k: null },
      { slug: 'openai/gpt-4o-mini', input_price_micros_per_1k: 150, output_price_micros_per_1k: 600, cached_input_price_micros_per_1k: null, cache_write_input_price_micros_per_1k: null },
    ]);
  });

  it('allows a model with an alias and project prices, which override the organisation prices', async () => {
    await projectWithOpenai('priced');

    const result = await admin.ok<ProjectView>({
      command: 'model.allow',
      projectId: 'priced',
      slug: 'openai/gpt-4o-mini',
      alias: 'mini',
      inputMicrosPer1k: 100,
      outputMicrosPer1k: 400,
    });

    expect(result.models).toEqual([
      {
        slug: 'openai/gpt-4o-mini',
        provider: 'openai',
        model: 'gpt-4o-mini',
        kind: 'chat',
        alias: 'mini',
        input_price_micros_per_1k: 100,
        output_price_micros_per_1k: 400,
        cached_input_price_micros_per_1k: null,
        cache_write_input_price_micros_per_1k: null,
        price_source: 'project',
        context_length: 128_000,
        max_output_tokens: 16_384,
        description: null,
        upstream_api: null,
      },
    ]);
  });

  it('prices a model without project prices from the organisation card, or at zero when it has none', async () => {
    await projectWithOpenai('defaults');

    await admin.ok({ command: 'model.allow', projectId: 'defaults', slug: 'openai/gpt-4o' });
    const result = await admin.ok<ProjectView>({ command: 'model.allow', projectId: 'defaults', slug: 'openai/o3' });

    expect(model(result, 'openai/gpt-4o')).toMatchObject({
      alias: null,
      input_price_micros_per_1k: 2500,
      output_price_micros_per_1k: 10000,
      price_source: 'organisation',
    });
    expect(model(result, 'openai/o3')).toMatchObject({ input_price_micros_per_1k: 0, output_price_micros_per_1k: 0, price_source: 'none' });
  });

  it('refuses a model of a provider the project has not configured with 409 provider_not_configured', async () => {
    await admin.ok({ command: 'project.create', projectId: 'unconfigured' });

    const error = await admin.refused({ command: 'model.allow', projectId: 'unconfigured', slug: 'mistral/mistral-large' });

    expect(error).toEqual({
      status: 409,
      code: 'provider_not_configured',
      message: 'Provider "mistral" is not configured on "unconfigured": set its key first (Providers in the console, "provider set unconfigured mistral" in the CLI).',
    });
    expect((await admin.ok<ProjectView>({ command: 'project.get', projectId: 'unconfigured' })).models).toEqual([]);
  });

  it('follows a later change of the organisation price', async () => {
    await admin.ok({ command: 'project.create', projectId: 'follower' });
    await admin.ok({ command: 'provider.set', projectId: 'follower', provider: 'mistral', apiKey: 'sk-mistral' });
    const first = await admin.ok<ProjectView>({ command: 'model.allow', projectId: 'follower', slug: 'mistral/mistral-large' });
    expect(model(first, 'mistral/mistral-large')?.price_source).toBe('none');

    await admin.ok({ command: 'ratecard.set', slug: 'mistral/mistral-large', inputMicrosPer1k: 2000, outputMicrosPer1k: 6000 });

    const later = await admin.ok<ProjectView>({ command: 'project.get', projectId: 'follower' });
    expect(model(later, 'mistral/mistral-large')).toMatchObject({ input_price_micros_per_1k: 2000, price_source: 'organisation' });
  });

  it('keeps a model id that itself contains slashes', async () => {
    await admin.ok({ command: 'project.create', projectId: 'router' });
    await admin.ok({ command: 'provider.set', projectId: 'router', provider: 'openrouter', apiKey: 'sk-or' });

    const result = await admin.ok<ProjectView>({ command: 'model.allow', projectId: 'router', slug: 'openrouter/openai/gpt-4o-mini' });

    expect(model(result, 'openrouter/openai/gpt-4o-mini')).toMatchObject({ provider: 'openrouter', model: 'openai/gpt-4o-mini' });
  });

  it('refuses an alias another model already uses with 409 alias_taken', async () => {
    await projectWithOpenai('aliases');
    await admin.ok({ command: 'model.allow', projectId: 'aliases', slug: 'openai/gpt-4o', alias: 'fast' });

    const error = await admin.refused({ command: 'model.allow', projectId: 'aliases', slug: 'openai/gpt-4o-mini', alias: 'fast' });

    expect(error).toEqual({ status: 409, code: 'alias_taken', message: 'The alias "fast" is already used by "openai/gpt-4o".' });
    const project = await admin.ok<ProjectView>({ command: 'project.get', projectId: 'aliases' });
    expect(project.models.map((entry) => entry.slug)).toEqual(['openai/gpt-4o']);
  });

  it('lets a model be allowed again with its own alias, keeping its alias, prices and creation time', async () => {
    await projectWithOpenai('again');
    await admin.ok({
      command: 'model.allow',
      projectId: 'again',
      slug: 'openai/gpt-4o',
      alias: 'big',
      inputMicrosPer1k: 2000,
      outputMicrosPer1k: 8000,
    });
    admin.setTime('2025-03-03T03:03:03.000Z');
    try {
      await admin.ok({ command: 'model.allow', projectId: 'again', slug: 'openai/gpt-4o', alias: 'big' });
      const result = await admin.ok<ProjectView>({ command: 'model.allow', projectId: 'again', slug: 'openai/gpt-4o', outputMicrosPer1k: 9000 });

      expect(result.models).toEqual([
        {
          slug: 'openai/gpt-4o',
          provider: 'openai',
          model: 'gpt-4o',
          kind: 'chat',
          alias: 'big',
          input_price_micros_per_1k: 2000,
          output_price_micros_per_1k: 9000,
          cached_input_price_micros_per_1k: null,
          cache_write_input_price_micros_per_1k: null,
          price_source: 'project',
          context_length: 128_000,
          max_output_tokens: 16_384,
          description: null,
          upstream_api: null,
        },
      ]);
      const config = await admin.projects.loadProjectConfig('again');
      expect(config?.models[0]?.createdAt).toBe(START_TIME);
    } finally {
      admin.setTime(START_TIME);
    }
  });

  it('removes a model together with its project prices', async () => {
    await projectWithOpenai('removal');
    await admin.ok({ command: 'model.allow', projectId: 'removal', slug: 'openai/gpt-4o', inputMicrosPer1k: 1, outputMicrosPer1k: 2 });
    await admin.ok({ command: 'model.allow', projectId: 'removal', slug: 'openai/gpt-4o-mini' });

    const result = await admin.ok<ProjectView>({ command: 'model.remove', projectId: 'removal', slug: 'openai/gpt-4o' });

    expect(result.models.map((entry) => entry.slug)).toEqual(['openai/gpt-4o-mini']);
    const readded = await admin.ok<ProjectView>({ command: 'model.allow', projectId: 'removal', slug: 'openai/gpt-4o' });
    expect(model(readded, 'openai/gpt-4o')).toMatchObject({ input_price_micros_per_1k: 2500, price_source: 'organisation' });
  });

  it('answers 404 model_not_found when removing a model that is not allowed', async () => {
    await projectWithOpenai('absent');

    const error = await admin.refused({ command: 'model.remove', projectId: 'absent', slug: 'openai/gpt-4o' });

    expect(error).toEqual({ status: 404, code: 'model_not_found', message: '"openai/gpt-4o" is not on the allowlist of "absent".' });
  });

  it('invalidates the cached project when its allowlist changes', async () => {
    await projectWithOpenai('allow-cache');
    const { projects } = admin.services.caches;
    const load = () => admin.projects.loadProjectConfig('allow-cache');
    expect((await projects.get('allow-cache', load))?.models).toEqual([]);

    await admin.ok({ command: 'model.allow', projectId: 'allow-cache', slug: 'openai/gpt-4o' });
    expect((await projects.get('allow-cache', load))?.models.map((entry) => entry.slug)).toEqual(['openai/gpt-4o']);

    await admin.ok({ command: 'model.remove', projectId: 'allow-cache', slug: 'openai/gpt-4o' });
    expect((await projects.get('allow-cache', load))?.models).toEqual([]);
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
