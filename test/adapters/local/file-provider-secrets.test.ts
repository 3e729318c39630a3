import { mkdtemp, readFile, readdir, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FileProviderSecrets } from '../../../shared/adapters/local/file-provider-secrets.ts';

describe('FileProviderSecrets', () => {
  let dir: string;

  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'file-provider-secrets-'));
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('returns the key it stored', async () => {
    const secrets = new FileProviderSecrets(join(dir, 'secrets.json'));

    await secrets.putApiKey('alpha', 'openai', 'sk-alpha-openai');

    await expect(secrets.getApiKey('alpha', 'openai')).resolves.toBe('sk-alpha-openai');
    await expect(new FileProviderSecrets(join(dir, 'secrets.json')).getApiKey('alpha', 'openai')).resolves.toBe('sk-alpha-openai');
  });

  it('writes a file only its owner may read or write (mode 0600)', async () => {
    const file = join(dir, 'nested', 'secrets.json');

    await new FileProviderSecrets(file).putApiKey('alpha', 'openai', 'sk-private');

    expect((await stat(file)).mode & 0o777).toBe(0o600);
  });

  it('keeps the owner-only mode when a key is replaced, and leaves no temporary file behind', async () => {
    const file = join(dir, 'secrets.json');
    const secrets = new FileProviderSecrets(file);

    await secrets.putApiKey('alpha', 'openai', 'sk-first');
    await secrets.putApiKey('alpha', 'openai', 'sk-second');

    expect((await stat(file)).mode & 0o777).toBe(0o600);
    await expect(secrets.getApiKey('alpha', 'openai')).resolves.toBe('sk-second');
    expect(await readdir(dir)).toEqual(['secrets.json']);
  });

  it('deletes one key and keeps the others, also when the key was never stored', async () => {
    const secrets = new FileProviderSecrets(join(dir, 'secrets.json'));
    await secrets.putApiKey('alpha', 'openai', 'sk-alpha-openai');
    await secrets.putApiKey('alpha', 'groq', 'gsk-alpha-groq');

    await secrets.deleteApiKey('alpha', 'openai');
    await secrets.deleteApiKey('alpha', 'mistral');

    await expect(secrets.getApiKey('alpha', 'openai')).resolves.toBeUndefined();
    await expect(secrets.getApiKey('alpha', 'groq')).resolves.toBe('gsk-alpha-groq');
    expect((await stat(join(dir, 'secrets.json'))).mode & 0o777).toBe(0o600);
  });

  it('answers undefined when the file does not exist yet', async () => {
    await expect(new FileProviderSecrets(join(dir, 'absent.json')).getApiKey('alpha', 'openai')).resolves.toBeUndefined();
  });

  it('answers undefined for a provider it holds no key for', async () => {
    const secrets = new FileProviderSecrets(join(dir, 'secrets.json'));
    await secrets.putApiKey('alpha', 'openai', 'sk-alpha-openai');

    await expect(secrets.getApiKey('alpha', 'anthropic')).resolves.toBeUndefined();
    await expect(secrets.getApiKey('beta', 'openai')).resolves.toBeUndefined();
  });

  it('keeps two providers, and two projects, apart', async () => {
    const file = join(dir, 'secrets.json');
    const secrets = new FileProviderSecrets(file);

    await secrets.putApiKey('alpha', 'openai', 'sk-alpha-openai');
    await secrets.putApiKey('alpha', 'anthropic', 'sk-alpha-anthropic');
    await secrets.putApiKey('beta', 'openai', 'sk-beta-openai');

    await expect(secrets.getApiKey('alpha', 'openai')).resolves.toBe('sk-alpha-openai');
    await expect(secrets.getApiKey('alpha', 'anthropic')).resolves.toBe('sk-alpha-anthropic');
    await expect(secrets.getApiKey('beta', 'openai')).resolves.toBe('sk-beta-openai');
    expect(JSON.parse(await readFile(file, 'utf8'))).toEqual({
      'alpha/openai': 'sk-alpha-openai',
      'alpha/anthropic': 'sk-alpha-anthropic',
      'beta/openai': 'sk-beta-openai',
    });
  });

  it('keeps both keys when two are stored at the same time', async () => {
    const secrets = new FileProviderSecrets(join(dir, 'secrets.json'));

    await Promise.all([
      secrets.putApiKey('alpha', 'openai', 'sk-alpha-openai'),
      secrets.putApiKey('alpha', 'anthropic', 'sk-alpha-anthropic'),
      secrets.putApiKey('beta', 'openai', 'sk-beta-openai'),
    ]);

    await expect(secrets.getApiKey('alpha', 'openai')).resolves.toBe('sk-alpha-openai');
    await expect(secrets.getApiKey('alpha', 'anthropic')).resolves.toBe('sk-alpha-anthropic');
    await expect(secrets.getApiKey('beta', 'openai')).resolves.toBe('sk-beta-openai');
  });

  it('refuses a file that is not a JSON object of strings rather than overwrite it', async () => {
    const file = join(dir, 'secrets.json');
    await writeFile(file, '{"alpha/openai": 42}', { mode: 0o600 });
    const secrets = new FileProviderSecrets(file);

    await expect(secrets.getApiKey('alpha', 'openai')).rejects.toThrow();
    await expect(secrets.putApiKey('alpha', 'anthropic', 'sk-new')).rejects.toThrow();
    expect(await readFile(file, 'utf8')).toBe('{"alpha/openai": 42}');
  });
});
