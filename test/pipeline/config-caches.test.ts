import { describe, expect, it } from 'vitest';
import type { KeyRecord } from '../../shared/core/key-record.ts';
import { createConfigCaches, KEY_TTL_MS, UNKNOWN_KEY_TTL_MS } from '../../shared/pipeline/config-caches.ts';

describe('the key cache', () => {
  it('remembers an unknown key briefly, so repeating it costs one store read, then looks again', async () => {
    let now = 0;
    const caches = createConfigCaches({ now: () => now });
    let reads = 0;
    const lookUp = () => caches.keys.get('hash-of-an-unknown-key', async () => (reads++, undefined));
    for (let attempt = 0; attempt < 5; attempt += 1) expect(await lookUp()).toBeUndefined();
    expect(reads).toBe(1);
    now += UNKNOWN_KEY_TTL_MS;
    await lookUp();
    expect(reads).toBe(2);
    expect(UNKNOWN_KEY_TTL_MS).toBeLessThan(KEY_TTL_MS);
  });

  it('reloads a key in use before it expires, so under steady traffic no request waits for the store', async () => {
    let now = 0;
    const caches = createConfigCaches({ now: () => now });
    let reads = 0;
    let release: () => void = () => {};
    const record = (name: string): KeyRecord => ({ keyHash: 'hash-of-a-key', keyId: 'key_1', projectId: 'acme', name, hint: 'gw.…0000', createdAt: '2026-01-01T00:00:00.000Z' });
    const lookUp = () =>
      caches.keys.get('hash-of-a-key', () => (++reads === 1 ? Promise.resolve(record('first read')) : new Promise<KeyRecord>((resolve) => (release = () => resolve(record('reloaded'))))));
    await lookUp();
    // A request a second before the key would expire is answered from memory and starts the reload.
    now += KEY_TTL_MS - 1_000;
    expect((await lookUp())?.name).toBe('first read');
    expect(reads).toBe(2);
    release();
    await new Promise((resolve) => setImmediate(resolve));
    now += 1_000;
    expect((await lookUp())?.name).toBe('reloaded');
    expect(reads).toBe(2);
  });
});
