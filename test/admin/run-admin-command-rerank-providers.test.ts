import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAdminHarness, type AdminHarness, type ProjectView } from './admin-harness.ts';

describe('runAdminCommand: providers that rerank', () => {
  let admin: AdminHarness;

  beforeAll(async () => {
    admin = await startAdminHarness();
    await admin.ok({ command: 'project.create', projectId: 'rank' });
  });
  afterAll(async () => {
    await admin?.close();
  });

  const protocolsOf = (view: ProjectView, provider: string) => view.providers.find((entry) => entry.provider === provider)?.protocols;

  it('knows Cohere, Jina and Voyage as rerank providers with their base URLs', async () => {
    const view = await admin.ok<ProjectView>({ command: 'provider.set', projectId: 'rank', provider: 'cohere', apiKey: 'co-secret-0123456789' });
    expect(view.providers.find((entry) => entry.provider === 'cohere')).toMatchObject({ protocols: ['cohere-rerank'], auth: 'bearer', base_url: 'https://api.cohere.com/v2' });
    expect(protocolsOf(await admin.ok<ProjectView>({ command: 'provider.set', projectId: 'rank', provider: 'jina', apiKey: 'jina-secret' }), 'jina')).toEqual(['jina-rerank']);
    expect(protocolsOf(await admin.ok<ProjectView>({ command: 'provider.set', projectId: 'rank', provider: 'voyage', apiKey: 'pa-secret' }), 'voyage')).toEqual(['voyage-rerank']);
  });

  it("gives Together its chat protocol and Jina's rerank shape", async () => {
    const view = await admin.ok<ProjectView>({ command: 'provider.set', projectId: 'rank', provider: 'together', apiKey: 'tg-secret' });
    expect(protocolsOf(view, 'together')).toEqual(['openai-chat', 'jina-rerank']);
  });

  it('lets an OpenAI-protocol provider declare the rerank shape it serves, keeps it, and clears it with none', async () => {
    const base = { command: 'provider.set', projectId: 'rank', provider: 'infinity', protocol: 'openai', baseUrl: 'https://rerank.example.com/v1', apiKey: 'local-secret' };
    expect(protocolsOf(await admin.ok<ProjectView>({ ...base, rerank: 'cohere' }), 'infinity')).toEqual(['openai-chat', 'cohere-rerank']);
    expect(protocolsOf(await admin.ok<ProjectView>(base), 'infinity')).toEqual(['openai-chat', 'cohere-rerank']);
    expect(protocolsOf(await admin.ok<ProjectView>({ ...base, rerank: 'none' }), 'infinity')).toEqual(['openai-chat']);
  });

  it('refuses --rerank and --responses native on a rerank provider', async () => {
    expect(await admin.refused({ command: 'provider.set', projectId: 'rank', provider: 'cohere', apiKey: 'co-secret-0123456789', rerank: 'jina' })).toMatchObject({ status: 400, code: 'rerank_not_served' });
    expect(await admin.refused({ command: 'provider.set', projectId: 'rank', provider: 'voyage', apiKey: 'pa', responses: 'native' })).toMatchObject({ status: 400, code: 'responses_not_served' });
  });
});
