import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { START_TIME, type AdminHarness, type ProjectView } from './admin-harness.ts';
import { createProjectWithOpenai, model, startRateCardHarness } from './run-admin-command-models-fixtures.ts';

describe('runAdminCommand: model.allow', () => {
  let admin: AdminHarness;
  const projectWithOpenai = (projectId: string) => createProjectWithOpenai(admin, projectId);

  beforeAll(async () => {
    admin = await startRateCardHarness();
  });
  afterAll(async () => {
    await admin?.close();
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
        cache_write_1h_input_price_micros_per_1k: null,
        price_source: 'project',
        context_length: 128_000,
        max_output_tokens: 16_384,
        description: null,
        upstream_api: null,
        reasoning: false,
        reasoning_source: 'model id',
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
          cache_write_1h_input_price_micros_per_1k: null,
          price_source: 'project',
          context_length: 128_000,
          max_output_tokens: 16_384,
          description: null,
          upstream_api: null,
          reasoning: false,
          reasoning_source: 'model id',
        },
      ]);
      const config = await admin.projects.loadProjectConfig('again');
      expect(config?.models[0]?.createdAt).toBe(START_TIME);
    } finally {
      admin.setTime(START_TIME);
    }
  });
});
