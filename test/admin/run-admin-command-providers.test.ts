import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startAdminHarness, type AdminHarness, type ProjectView } from './admin-harness.ts';

/** Every provider key used here carries this marker, so no answer may contain it. */
const SECRET_MARKER = 'sk-secret-';

describe('runAdminCommand: providers', () => {
  let admin: AdminHarness;

  beforeAll(async () => {
    admin = await startAdminHarness();
  });
  afterEach(() => {
    for (const answer of admin.answers) expect(JSON.stringify(answer)).not.toContain(SECRET_MARKER);
  });
  afterAll(async () => {
    await admin?.close();
  });

  async function project(projectId: string): Promise<void> {
    await admin.ok({ command: 'project.create', projectId });
  }

  it('sets a known provider with its protocol and base URL, keeping the key in the secret store only', async () => {
    await project('known');

    const result = await admin.ok<ProjectView>({
      command: 'provider.set',
      projectId: 'known',
      provider: 'openai',
      apiKey: 'sk-secret-openai-0001',
    });

    expect(result.providers).toEqual([
      { provider: 'openai', protocols: ['openai-chat', 'openai-responses'], auth: 'bearer', base_url: 'https://api.openai.com/v1', has_api_key: true },
    ]);
    await expect(admin.secrets.getApiKey('known', 'openai')).resolves.toBe('sk-secret-openai-0001');
    const stored = (await admin.scan('admin-test-projects')).filter((item) => item.projectId === 'known');
    expect(stored.map((item) => item.itemKey).sort()).toEqual(['project', 'provider#openai']);
    expect(JSON.stringify(stored)).not.toContain(SECRET_MARKER);
  });

  it('never returns the provider key from any later command either', async () => {
    await project('quiet');
    const from = admin.answers.length;

    await admin.ok({ command: 'provider.set', projectId: 'quiet', provider: 'anthropic', apiKey: 'sk-secret-anthropic-0002' });
    await admin.ok({ command: 'project.get', projectId: 'quiet' });
    await admin.ok({ command: 'project.update', projectId: 'quiet', name: 'Quiet' });
    await admin.ok({ command: 'model.allow', projectId: 'quiet', slug: 'anthropic/claude-sonnet-4', alias: 'sonnet' });
    await admin.ok({ command: 'model.remove', projectId: 'quiet', slug: 'anthropic/claude-sonnet-4' });
    await admin.ok({ command: 'key.create', projectId: 'quiet' });
    await admin.ok({ command: 'key.list', projectId: 'quiet' });
    await admin.ok({ command: 'ratecard.list' });

    const answers = admin.answers.slice(from);
    expect(answers).toHaveLength(8);
    for (const answer of answers) {
      expect(answer.ok).toBe(true);
      expect(JSON.stringify(answer)).not.toContain('sk-secret-anthropic-0002');
    }
    await expect(admin.secrets.getApiKey('quiet', 'anthropic')).resolves.toBe('sk-secret-anthropic-0002');
  });

  it('sets the offline mock provider without a key', async () => {
    await project('offline');

    const result = await admin.ok<ProjectView>({ command: 'provider.set', projectId: 'offline', provider: 'mock' });

    expect(result.providers).toEqual([{ provider: 'mock', protocols: ['openai-chat'], auth: 'bearer', base_url: 'mock://offline/v1', has_api_key: false }]);
    await expect(admin.secrets.getApiKey('offline', 'mock')).resolves.toBeUndefined();
  });

  it('refuses a real provider without a key with 400 missing_api_key', async () => {
    await project('keyless');

    expect(await admin.refused({ command: 'provider.set', projectId: 'keyless', provider: 'openai' })).toEqual({
      status: 400,
      code: 'missing_api_key',
      // Said for the CLI and the console alike: no flag or form field named.
      message: 'Provider "openai" needs an API key.',
    });
    expect((await admin.ok<ProjectView>({ command: 'project.get', projectId: 'keyless' })).providers).toEqual([]);
  });

  it('keeps the stored key when a provider is set again without one on the same host: a new path, or the Responses setting', async () => {
    await project('same-host');
    const azure = { command: 'provider.set', projectId: 'same-host', provider: 'azure', protocol: 'openai' };
    await admin.ok({ ...azure, apiKey: 'sk-secret-azure-0008', baseUrl: 'https://acme.openai.azure.com/openai/v1' });

    const moved = await admin.ok<ProjectView>({ ...azure, baseUrl: 'https://acme.openai.azure.com/openai/v2' });
    expect(moved.providers).toEqual([expect.objectContaining({ base_url: 'https://acme.openai.azure.com/openai/v2', has_api_key: true })]);
    const translated = await admin.ok<ProjectView>({ ...azure, baseUrl: 'https://acme.openai.azure.com/openai/v2', responses: 'translate' });
    expect(translated.providers).toEqual([expect.objectContaining({ protocols: ['openai-chat'], has_api_key: true })]);
    await expect(admin.secrets.getApiKey('same-host', 'azure')).resolves.toBe('sk-secret-azure-0008');
  });

  it('asks for the key again when a provider moves to another host, so a stored key never follows a new base URL', async () => {
    await project('new-host');
    await admin.ok({ command: 'provider.set', projectId: 'new-host', provider: 'openai', apiKey: 'sk-secret-openai-0009' });

    expect(await admin.refused({ command: 'provider.set', projectId: 'new-host', provider: 'openai', baseUrl: 'https://llm-proxy.example/v1' })).toEqual({
      status: 400,
      code: 'missing_api_key',
      message: 'Provider "openai" moves to https://llm-proxy.example: give its API key again (the stored key is sent only to https://api.openai.com).',
    });
    expect((await admin.ok<ProjectView>({ command: 'project.get', projectId: 'new-host' })).providers).toEqual([
      expect.objectContaining({ base_url: 'https://api.openai.com/v1', has_api_key: true }),
    ]);
    const moved = await admin.ok<ProjectView>({ command: 'provider.set', projectId: 'new-host', provider: 'openai', baseUrl: 'https://llm-proxy.example/v1', apiKey: 'sk-secret-proxy-0010' });
    expect(moved.providers).toEqual([expect.objectContaining({ base_url: 'https://llm-proxy.example/v1', has_api_key: true })]);
  });

  it('refuses an unknown provider without --protocol and --base-url with 400 unknown_provider', async () => {
    await project('unknown');
    const partial = [
      { command: 'provider.set', projectId: 'unknown', provider: 'acme', apiKey: 'sk-secret-acme-0003' },
      { command: 'provider.set', projectId: 'unknown', provider: 'acme', apiKey: 'sk-secret-acme-0003', protocol: 'openai' },
      { command: 'provider.set', projectId: 'unknown', provider: 'acme', apiKey: 'sk-secret-acme-0003', baseUrl: 'https://llm.acme.example/v1' },
    ];

    // Each names only what is missing.
    const protocols = '--protocol (openai, anthropic, bedrock, cohere, jina, voyage)';
    const missing = [`${protocols} and --base-url (bedrock: --region).`, '--base-url.', `${protocols}.`];
    for (const [index, event] of partial.entries()) {
      const error = await admin.refused(event);
      expect(error).toMatchObject({ status: 400, code: 'unknown_provider' });
      expect(error.message).toBe(`"acme" is not a known provider: give its ${missing[index]}`);
    }
    await expect(admin.secrets.getApiKey('unknown', 'acme')).resolves.toBeUndefined();
  });

  it('accepts an unknown provider given its protocol and base URL, trimming trailing slashes', async () => {
    await project('custom');

    const result = await admin.ok<ProjectView>({
      command: 'provider.set',
      projectId: 'custom',
      provider: 'acme',
      apiKey: 'sk-secret-acme-0004',
      protocol: 'anthropic',
      baseUrl: 'https://llm.acme.example/v1/',
    });

    expect(result.providers).toEqual([
      { provider: 'acme', protocols: ['anthropic-messages'], auth: 'x-api-key', base_url: 'https://llm.acme.example/v1', has_api_key: true },
    ]);
  });

  it("adds /v1 to an Anthropic-protocol base URL pasted as published (ANTHROPIC_BASE_URL), and to no other protocol's", async () => {
    await project('compatible');
    const set = (provider: string, protocol: string, baseUrl: string) =>
      admin.ok<ProjectView>({ command: 'provider.set', projectId: 'compatible', provider, apiKey: 'sk-secret-compatible-0005', protocol, baseUrl });

    await set('deepseek-claude', 'anthropic', 'https://api.deepseek.com/anthropic');
    await set('zai', 'anthropic', 'https://api.z.ai/api/anthropic/');
    await set('kept', 'anthropic', 'https://llm.acme.example/v1');
    const result = await set('plain', 'openai', 'https://llm.acme.example/openai');

    const urls = Object.fromEntries(result.providers.map((provider) => [provider.provider, provider.base_url]));
    expect(urls).toEqual({
      'deepseek-claude': 'https://api.deepseek.com/anthropic/v1',
      zai: 'https://api.z.ai/api/anthropic/v1',
      kept: 'https://llm.acme.example/v1',
      plain: 'https://llm.acme.example/openai',
    });
  });

  it('refuses plain http and private or loopback base URLs with 400 invalid_base_url, storing no key', async () => {
    await project('guarded');
    for (const baseUrl of [
      'http://api.acme.example/v1',
      'https://127.0.0.1/v1',
      'https://localhost:8443/v1',
      'https://10.1.2.3/v1',
      'https://[::1]/v1',
      'https://user:pass@api.acme.example/v1',
      'not a url',
    ]) {
      const error = await admin.refused({
        command: 'provider.set',
        projectId: 'guarded',
        provider: 'openai',
        apiKey: 'sk-secret-guarded-0005',
        baseUrl,
      });
      expect(error, baseUrl).toMatchObject({ status: 400, code: 'invalid_base_url' });
    }
    await expect(admin.secrets.getApiKey('guarded', 'openai')).resolves.toBeUndefined();
    expect((await admin.ok<ProjectView>({ command: 'project.get', projectId: 'guarded' })).providers).toEqual([]);
  });

  it('accepts a loopback http base URL only where private upstreams are allowed', async () => {
    await project('local-dev');
    const event = {
      command: 'provider.set',
      projectId: 'local-dev',
      provider: 'openai',
      apiKey: 'sk-secret-local-0006',
      baseUrl: 'http://127.0.0.1:8080/v1',
    };

    expect(await admin.refused(event)).toMatchObject({ code: 'invalid_base_url' });
    const result = await admin.ok<ProjectView>(event, { allowPrivateUpstreams: true });

    expect(result.providers).toEqual([
      { provider: 'openai', protocols: ['openai-chat', 'openai-responses'], auth: 'bearer', base_url: 'http://127.0.0.1:8080/v1', has_api_key: true },
    ]);
  });

  it('refuses a provider on an unknown project with 404, storing no key', async () => {
    const error = await admin.refused({ command: 'provider.set', projectId: 'nowhere', provider: 'openai', apiKey: 'sk-secret-0007' });

    expect(error).toMatchObject({ status: 404, code: 'project_not_found' });
    await expect(admin.secrets.getApiKey('nowhere', 'openai')).resolves.toBeUndefined();
  });

  it('rotates a key and invalidates the cached provider key and project', async () => {
    await project('rotating');
    await admin.ok({ command: 'provider.set', projectId: 'rotating', provider: 'groq', apiKey: 'sk-secret-groq-old' });
    const { caches } = admin.services;
    await caches.providerKeys.get('rotating/groq', () => admin.secrets.getApiKey('rotating', 'groq'));
    await caches.providerKeys.get('rotating/openai', async () => 'sk-secret-unrelated');
    await caches.projects.get('rotating', () => admin.projects.loadProjectConfig('rotating'));

    await admin.ok({ command: 'provider.set', projectId: 'rotating', provider: 'groq', apiKey: 'sk-secret-groq-new' });

    const loads: string[] = [];
    const rotated = await caches.providerKeys.get('rotating/groq', async () => {
      loads.push('groq');
      return admin.secrets.getApiKey('rotating', 'groq');
    });
    await caches.providerKeys.get('rotating/openai', async () => {
      loads.push('openai');
      return undefined;
    });
    const config = await caches.projects.get('rotating', async () => {
      loads.push('project');
      return admin.projects.loadProjectConfig('rotating');
    });
    expect(rotated).toBe('sk-secret-groq-new');
    expect(loads).toEqual(['groq', 'project']);
    expect(config?.providers.get('groq')?.baseUrl).toBe('https://api.groq.com/openai/v1');
  });
});
