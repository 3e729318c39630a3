import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAdminHarness, type AdminHarness, type ProjectView } from './admin-harness.ts';

/** How providers declare the Responses API, and how a model is marked as served by one OpenAI API only. */
describe('runAdminCommand: the Responses API of providers and models', () => {
  let admin: AdminHarness;
  const protocolsOf = (view: ProjectView, provider: string) => view.providers.find((entry) => entry.provider === provider)?.protocols;

  beforeAll(async () => {
    admin = await startAdminHarness();
    await admin.ok({ command: 'project.create', projectId: 'codex' });
  });
  afterAll(async () => {
    await admin?.close();
  });

  it('serves /v1/responses natively on OpenAI, OpenRouter and Azure OpenAI by default, translated on other OpenAI-compatible providers', async () => {
    await admin.ok({ command: 'provider.set', projectId: 'codex', provider: 'openrouter', apiKey: 'sk-or-1' });
    await admin.ok({ command: 'provider.set', projectId: 'codex', provider: 'groq', apiKey: 'gsk-1' });
    await admin.ok({ command: 'provider.set', projectId: 'codex', provider: 'azure', protocol: 'openai', baseUrl: 'https://acme.openai.azure.com/openai/v1', apiKey: 'az-1' });
    const view = await admin.ok<ProjectView>({ command: 'provider.set', projectId: 'codex', provider: 'vllm', protocol: 'openai', baseUrl: 'https://vllm.acme.example/v1', apiKey: 'local' });
    expect(protocolsOf(view, 'openrouter')).toEqual(['openai-chat', 'openai-responses']);
    expect(protocolsOf(view, 'azure')).toEqual(['openai-chat', 'openai-responses']);
    expect(protocolsOf(view, 'groq')).toEqual(['openai-chat']);
    expect(protocolsOf(view, 'vllm')).toEqual(['openai-chat']);
  });

  it('follows --responses either way, and keeps the choice when provider set runs again without it (a key rotation)', async () => {
    let view = await admin.ok<ProjectView>({ command: 'provider.set', projectId: 'codex', provider: 'openai', apiKey: 'sk-1', responses: 'translate' });
    expect(protocolsOf(view, 'openai')).toEqual(['openai-chat']);
    view = await admin.ok<ProjectView>({ command: 'provider.set', projectId: 'codex', provider: 'openai', apiKey: 'sk-2' });
    expect(protocolsOf(view, 'openai')).toEqual(['openai-chat']);
    view = await admin.ok<ProjectView>({ command: 'provider.set', projectId: 'codex', provider: 'vllm', protocol: 'openai', baseUrl: 'https://vllm.acme.example/v1', apiKey: 'local', responses: 'native' });
    expect(protocolsOf(view, 'vllm')).toEqual(['openai-chat', 'openai-responses']);
  });

  it('refuses --responses native for an Anthropic-protocol provider, which has no Responses API', async () => {
    expect(await admin.refused({ command: 'provider.set', projectId: 'codex', provider: 'anthropic', apiKey: 'sk-ant-1', responses: 'native' })).toMatchObject({
      status: 400,
      code: 'responses_not_served',
    });
  });

  it('marks a model as served by the Responses API only, and clears the mark with any', async () => {
    let view = await admin.ok<ProjectView>({ command: 'model.allow', projectId: 'codex', slug: 'openai/o3-pro', upstreamApi: 'responses' });
    expect(view.models.find((model) => model.slug === 'openai/o3-pro')).toMatchObject({ upstream_api: 'responses' });
    view = await admin.ok<ProjectView>({ command: 'model.allow', projectId: 'codex', slug: 'openai/o3-pro', alias: 'deep' });
    expect(view.models.find((model) => model.slug === 'openai/o3-pro')).toMatchObject({ upstream_api: 'responses', alias: 'deep' });
    view = await admin.ok<ProjectView>({ command: 'model.allow', projectId: 'codex', slug: 'openai/o3-pro', upstreamApi: 'any' });
    expect(view.models.find((model) => model.slug === 'openai/o3-pro')).toMatchObject({ upstream_api: null });
  });

  it('refuses an upstream API on a model of an Anthropic-protocol provider', async () => {
    await admin.ok({ command: 'provider.set', projectId: 'codex', provider: 'anthropic', apiKey: 'sk-ant-1' });
    expect(await admin.refused({ command: 'model.allow', projectId: 'codex', slug: 'anthropic/claude-sonnet-4-5', upstreamApi: 'responses' })).toMatchObject({
      status: 400,
      code: 'upstream_api_not_served',
    });
  });
});
