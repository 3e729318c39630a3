import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAdminHarness, type AdminHarness, type ProjectView } from './admin-harness.ts';

interface ProviderList {
  providers: Array<{ provider: string; protocol: string; base_url: string; has_api_key: boolean; models: number; updated_at: string }>;
}

describe('runAdminCommand: listing and removing providers', () => {
  let admin: AdminHarness;

  beforeAll(async () => {
    admin = await startAdminHarness();
  });
  afterAll(async () => {
    await admin?.close();
  });

  async function projectWith(projectId: string, providers: string[]): Promise<void> {
    await admin.ok({ command: 'project.create', projectId });
    for (const provider of providers) {
      await admin.ok({ command: 'provider.set', projectId, provider, ...(provider === 'mock' ? {} : { apiKey: `sk-${provider}-key` }) });
    }
  }

  it('lists the providers of a project by name, with how many allowed models each serves and never a key', async () => {
    await projectWith('listed', ['openai', 'mock']);
    await admin.ok({ command: 'model.allow', projectId: 'listed', slug: 'mock/echo' });
    await admin.ok({ command: 'model.allow', projectId: 'listed', slug: 'mock/other' });

    const list = await admin.ok<ProviderList>({ command: 'provider.list', projectId: 'listed' });

    expect(list.providers).toEqual([
      { provider: 'mock', protocols: ['openai-chat'], auth: 'bearer', base_url: 'mock://offline/v1', has_api_key: false, models: 2, updated_at: '2025-01-02T03:04:05.000Z' },
      { provider: 'openai', protocols: ['openai-chat', 'openai-responses'], auth: 'bearer', base_url: 'https://api.openai.com/v1', has_api_key: true, models: 0, updated_at: '2025-01-02T03:04:05.000Z' },
    ]);
    expect(JSON.stringify(list)).not.toContain('sk-openai-key');
  });

  it('removes a provider no model uses, deleting its key from the secret store', async () => {
    await projectWith('unplugged', ['openai', 'groq']);

    const result = await admin.ok<ProjectView>({ command: 'provider.remove', projectId: 'unplugged', provider: 'openai' });

    expect(result.providers.map((provider) => provider.provider)).toEqual(['groq']);
    await expect(admin.secrets.getApiKey('unplugged', 'openai')).resolves.toBeUndefined();
    await expect(admin.secrets.getApiKey('unplugged', 'groq')).resolves.toBe('sk-groq-key');
  });

  it('refuses to remove a provider whose models are still allowed with 409 provider_in_use, naming them', async () => {
    await projectWith('busy', ['openai']);
    await admin.ok({ command: 'model.allow', projectId: 'busy', slug: 'openai/gpt-4o' });
    await admin.ok({ command: 'model.allow', projectId: 'busy', slug: 'openai/gpt-4o-mini' });

    const error = await admin.refused({ command: 'provider.remove', projectId: 'busy', provider: 'openai' });

    expect(error).toEqual({
      status: 409,
      code: 'provider_in_use',
      message: '"busy" still allows openai/gpt-4o, openai/gpt-4o-mini from "openai": remove them first with "model remove".',
    });
    await expect(admin.secrets.getApiKey('busy', 'openai')).resolves.toBe('sk-openai-key');
  });

  it('answers 404 provider_not_found for a provider the project does not have', async () => {
    await projectWith('sparse', []);

    const error = await admin.refused({ command: 'provider.remove', projectId: 'sparse', provider: 'mistral' });

    expect(error).toEqual({ status: 404, code: 'provider_not_found', message: '"mistral" is not configured on "sparse".' });
  });

  it('invalidates the cached project and provider key, so requests here stop using it at once', async () => {
    await projectWith('cached', ['openai']);
    const { projects, providerKeys } = admin.services.caches;
    await projects.get('cached', () => admin.projects.loadProjectConfig('cached'));
    await providerKeys.get('cached/openai', async () => 'sk-openai-key');

    await admin.ok({ command: 'provider.remove', projectId: 'cached', provider: 'openai' });

    const reloaded = await projects.get('cached', () => admin.projects.loadProjectConfig('cached'));
    expect(reloaded?.providers.size).toBe(0);
    await expect(providerKeys.get('cached/openai', async () => undefined)).resolves.toBeUndefined();
  });
});
