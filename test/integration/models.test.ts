import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestGateway, type TestGateway } from '../support/test-gateway.ts';

let gateway: TestGateway;
let key: string;

beforeAll(async () => {
  gateway = await startTestGateway();
  await gateway.admin({ command: 'project.create', projectId: 'catalogue' });
  await gateway.admin({ command: 'provider.set', projectId: 'catalogue', provider: 'openai', apiKey: 'sk-never-called' });
  await gateway.admin({ command: 'provider.set', projectId: 'catalogue', provider: 'anthropic', apiKey: 'sk-ant-never-called' });
  await gateway.admin({ command: 'provider.set', projectId: 'catalogue', provider: 'mock' });
  await gateway.admin({
    command: 'model.allow',
    projectId: 'catalogue',
    slug: 'openai/gpt-4o-mini',
    alias: 'fast',
    inputMicrosPer1k: 150,
    outputMicrosPer1k: 600,
    cachedInputMicrosPer1k: 75,
  });
  await gateway.admin({
    command: 'model.allow',
    projectId: 'catalogue',
    slug: 'anthropic/claude-haiku-4-5',
    inputMicrosPer1k: 1000,
    outputMicrosPer1k: 5000,
    cachedInputMicrosPer1k: 100,
    cacheWriteInputMicrosPer1k: 1250,
  });
  await gateway.admin({ command: 'model.allow', projectId: 'catalogue', slug: 'mock/echo', contextLength: 8192, maxOutputTokens: 1024, description: 'Repeats you' });
  await gateway.admin({ command: 'model.allow', projectId: 'catalogue', slug: 'openai/o4-mini', inputMicrosPer1k: 1100, outputMicrosPer1k: 4400 });
  ({ key } = await gateway.admin<{ key: string }>({ command: 'key.create', projectId: 'catalogue' }));
});
afterAll(async () => {
  await gateway.close();
});

describe('GET /v1/models', () => {
  it('describes each model with what clients size requests by: context, max output, parameters, cache prices', async () => {
    const page = await gateway.openai(key).models.list();
    const byId = Object.fromEntries(page.data.map((entry) => [entry.id, entry as unknown as Record<string, unknown>]));

    expect(byId['openai/gpt-4o-mini']).toMatchObject({
      description: 'gpt-4o-mini from openai, alias "fast".',
      context_length: 128_000,
      top_provider: { context_length: 128_000, max_completion_tokens: 16_384, is_moderated: false },
      supported_parameters: expect.arrayContaining(['tools', 'tool_choice', 'response_format', 'max_tokens', 'temperature']),
      pricing: { prompt: '0.00000015', completion: '0.0000006', request: '0', input_cache_read: '0.000000075' },
    });
    expect(byId['anthropic/claude-haiku-4-5']).toMatchObject({
      context_length: 200_000,
      top_provider: { context_length: 200_000, max_completion_tokens: 64_000, is_moderated: false },
      supported_parameters: expect.arrayContaining(['tools', 'reasoning_effort']),
      pricing: { prompt: '0.000001', completion: '0.000005', input_cache_read: '0.0000001', input_cache_write: '0.00000125' },
    });
    expect(byId['anthropic/claude-haiku-4-5']?.supported_parameters).not.toContain('response_format');
    expect(byId['mock/echo']).toMatchObject({
      description: 'Repeats you',
      context_length: 8192,
      top_provider: { context_length: 8192, max_completion_tokens: 1024, is_moderated: false },
      supported_parameters: ['tools', 'tool_choice'],
    });
    expect(byId['openai/gpt-4o-mini']?.pricing).not.toHaveProperty('input_cache_write');
    // OpenRouter's reasoning settings for the model that reasons, not for the one that does not.
    expect(byId['openai/o4-mini']?.supported_parameters).toEqual(expect.arrayContaining(['reasoning', 'include_reasoning', 'reasoning_effort']));
    expect(byId['openai/gpt-4o-mini']?.supported_parameters).not.toContain('reasoning');
    // Models of the known table read images; the mock, text only.
    expect(byId['anthropic/claude-haiku-4-5']?.architecture).toMatchObject({ input_modalities: ['text', 'image'] });
    expect(byId['mock/echo']?.architecture).toMatchObject({ input_modalities: ['text'] });
  });
});

describe('GET /v1/models with OpenRouter\'s filters', () => {
  it('lists only the models that take tools for ?supported_parameters=tools, and by output for ?output_modalities=', async () => {
    const client = gateway.openai(key);
    await gateway.admin({ command: 'model.allow', projectId: 'catalogue', slug: 'openai/text-embedding-3-small', kind: 'embedding', inputMicrosPer1k: 20 });

    const withTools = await client.models.list({ query: { supported_parameters: 'tools' } });
    const embeddings = await client.models.list({ query: { output_modalities: 'embeddings' } });

    expect(withTools.data.map((entry) => entry.id)).toEqual(['anthropic/claude-haiku-4-5', 'mock/echo', 'openai/gpt-4o-mini', 'openai/o4-mini']);
    expect(embeddings.data.map((entry) => entry.id)).toEqual(['openai/text-embedding-3-small']);
    await gateway.admin({ command: 'model.remove', projectId: 'catalogue', slug: 'openai/text-embedding-3-small' });
  });
});

describe('GET /v1/models/{id}', () => {
  it("answers the openai SDK's models.retrieve, which sends the slug's slash as %2F, with the list's entry", async () => {
    const client = gateway.openai(key);
    const listed = (await client.models.list()).data.find((entry) => entry.id === 'openai/gpt-4o-mini');

    const retrieved = await client.models.retrieve('openai/gpt-4o-mini');

    expect(retrieved).toEqual(listed);
  });

  it.each([
    ['the slug with its slash as typed', '/v1/models/openai/gpt-4o-mini'],
    ['the alias', '/v1/models/fast'],
    ['the bare model id', '/v1/models/gpt-4o-mini'],
    ['a trailing slash', '/v1/models/openai%2Fgpt-4o-mini/'],
  ])('finds a model by %s', async (_how, path) => {
    const response = await fetch(`${gateway.url}${path}`, { headers: { authorization: `Bearer ${key}` } });
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ id: 'openai/gpt-4o-mini', object: 'model' });
  });

  it('answers a model that is not on the allowlist with 404 model_not_found in OpenAI\'s error format', async () => {
    const error = await gateway.openai(key).models.retrieve('openai/gpt-5').then(
      () => undefined,
      (thrown: unknown) => thrown,
    );
    expect(error).toBeInstanceOf(OpenAI.NotFoundError);
    expect(error).toMatchObject({ status: 404, code: 'model_not_found', param: 'model' });
  });

  it('refuses a request without a project key with 401', async () => {
    expect((await fetch(`${gateway.url}/v1/models/openai%2Fgpt-4o-mini`)).status).toBe(401);
  });

  it("pages the list for the Anthropic SDK as Anthropic does (limit, after_id, before_id, has_more)", async () => {
    const projectId = 'catalogue-paged';
    await gateway.admin({ command: 'project.create', projectId });
    await gateway.admin({ command: 'provider.set', projectId, provider: 'anthropic', apiKey: 'sk-ant-never-called' });
    const slugs = ['claude-haiku-4-5', 'claude-opus-4-1', 'claude-sonnet-4-5'].map((model) => `anthropic/${model}`);
    for (const slug of slugs) await gateway.admin({ command: 'model.allow', projectId, slug, inputMicrosPer1k: 1000, outputMicrosPer1k: 5000 });
    const { key: pagedKey } = await gateway.admin<{ key: string }>({ command: 'key.create', projectId });
    const client = new Anthropic({ baseURL: gateway.url, authToken: pagedKey, apiKey: null, maxRetries: 0 });

    const first = await client.models.list({ limit: 2 });
    expect(first.data.map((model) => model.id)).toEqual(slugs.slice(0, 2));
    expect(first).toMatchObject({ has_more: true, first_id: slugs[0], last_id: slugs[1] });
    const all: string[] = [];
    for await (const model of client.models.list({ limit: 2 })) all.push(model.id);
    expect(all).toEqual(slugs);
    const before = await client.models.list({ limit: 1, before_id: slugs[2] });
    expect(before.data.map((model) => model.id)).toEqual([slugs[1]]);
    expect(before.has_more).toBe(true);

    await expect(client.models.list({ limit: 0 })).rejects.toBeInstanceOf(Anthropic.BadRequestError);
    await expect(client.models.list({ after_id: 'anthropic/claude-unknown' })).rejects.toBeInstanceOf(Anthropic.BadRequestError);
  });

  it("answers the Anthropic SDK's models.retrieve with Anthropic's fields", async () => {
    const client = new Anthropic({ baseURL: gateway.url, authToken: key, apiKey: null, maxRetries: 0 });

    const model = await client.models.retrieve('claude-haiku-4-5');

    expect(model).toMatchObject({ id: 'anthropic/claude-haiku-4-5', type: 'model', display_name: 'claude-haiku-4-5' });
    expect(model.created_at).toMatch(/^\d{4}-\d{2}-\d{2}T/);
  });
});

describe('GET /v1/models beyond chat', () => {
  it('shows prices beyond tokens as USD decimal strings per unit, and what each kind of model takes and gives', async () => {
    const projectId = 'catalogue-units';
    await gateway.admin({ command: 'project.create', projectId });
    await gateway.admin({ command: 'provider.set', projectId, provider: 'openai', apiKey: 'sk-never-called' });
    await gateway.admin({ command: 'model.allow', projectId, slug: 'openai/dall-e-3', kind: 'image', imageMicros: 40_000, requestMicros: 5 });
    await gateway.admin({ command: 'model.allow', projectId, slug: 'openai/tts-1', kind: 'audio', characterMicrosPer1k: 15_000 });
    await gateway.admin({ command: 'model.allow', projectId, slug: 'openai/whisper-1', kind: 'audio', audioSecondMicros: 100 });
    await gateway.admin({ command: 'model.allow', projectId, slug: 'openai/sora-2', kind: 'video', videoSecondMicros: 100_000 });
    await gateway.admin({ command: 'model.allow', projectId, slug: 'openai/text-embedding-3-small', kind: 'embedding', inputMicrosPer1k: 20 });
    const { key: unitsKey } = await gateway.admin<{ key: string }>({ command: 'key.create', projectId });

    const page = await gateway.openai(unitsKey).models.list();
    const byId = Object.fromEntries(page.data.map((entry) => [entry.id, entry as unknown as Record<string, unknown>]));

    expect(byId['openai/dall-e-3']).toMatchObject({ pricing: { prompt: '0', completion: '0', request: '0.000005', image: '0.04' }, architecture: { modality: 'text+image->image', input_modalities: ['text', 'image'], output_modalities: ['image'] } });
    expect(byId['openai/tts-1']).toMatchObject({ pricing: { request: '0', character: '0.000015' } });
    expect(byId['openai/whisper-1']).toMatchObject({ pricing: { audio: '0.0001' }, architecture: { input_modalities: ['text', 'audio'] } });
    expect(byId['openai/sora-2']).toMatchObject({ pricing: { video: '0.1' }, architecture: { output_modalities: ['video'] } });
    expect(byId['openai/text-embedding-3-small']).toMatchObject({ pricing: { prompt: '0.00000002' }, architecture: { modality: 'text->embeddings' }, supported_parameters: [] });
    expect(byId['openai/text-embedding-3-small']?.pricing).not.toHaveProperty('image');
  });
});
