import { describe, expect, it } from 'vitest';
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
});
