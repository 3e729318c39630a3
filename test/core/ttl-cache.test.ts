import { describe, expect, it } from 'vitest';
import { TtlCache } from '../../shared/core/ttl-cache.ts';

/** A clock the test moves by hand. */
function manualClock(start = 1_000_000) {
  let t = start;
  return {
    clock: { now: () => t },
    advance(ms: number) {
      t += ms;
    },
  };
}

/** A loader that counts its calls and answers from a script. */
function countingLoader<V>(answer: (call: number) => Promise<V>) {
  let calls = 0;
  return {
    load: () => answer(++calls),
    get calls() {
      return calls;
    },
  };
}

describe('TtlCache', () => {
  it('serves a loaded value from memory until the TTL has passed', async () => {
    const time = manualClock();
    const cache = new TtlCache<string>({ ttlMs: 1000, maxStaleMs: 5000, clock: time.clock });
    const loader = countingLoader(async (call) => `v${call}`);

    expect(await cache.get('k', loader.load)).toBe('v1');
    time.advance(999);
    expect(await cache.get('k', loader.load)).toBe('v1');
    expect(loader.calls).toBe(1);
  });

  it('reloads once the TTL has passed', async () => {
    const time = manualClock();
    const cache = new TtlCache<string>({ ttlMs: 1000, maxStaleMs: 5000, clock: time.clock });
    const loader = countingLoader(async (call) => `v${call}`);

    await cache.get('k', loader.load);
    time.advance(1000);
    expect(await cache.get('k', loader.load)).toBe('v2');
    expect(loader.calls).toBe(2);
  });

  it('keeps keys apart', async () => {
    const time = manualClock();
    const cache = new TtlCache<string>({ ttlMs: 1000, maxStaleMs: 0, clock: time.clock });
    expect(await cache.get('a', async () => 'A')).toBe('A');
    expect(await cache.get('b', async () => 'B')).toBe('B');
    expect(await cache.get('a', async () => 'other')).toBe('A');
  });

  it('shares one load between concurrent gets of the same key', async () => {
    const time = manualClock();
    const cache = new TtlCache<string>({ ttlMs: 1000, maxStaleMs: 0, clock: time.clock });
    let release: (value: string) => void = () => {};
    const loader = countingLoader(() => new Promise<string>((resolve) => (release = resolve)));

    const first = cache.get('k', loader.load);
    const second = cache.get('k', loader.load);
    release('shared');
    expect(await Promise.all([first, second])).toEqual(['shared', 'shared']);
    expect(loader.calls).toBe(1);
  });

  it('does not remember a miss, so a record created a moment later is found at once', async () => {
    const time = manualClock();
    const cache = new TtlCache<string | undefined>({ ttlMs: 60_000, maxStaleMs: 0, clock: time.clock });
    const loader = countingLoader(async (call) => (call === 1 ? undefined : 'created'));

    expect(await cache.get('k', loader.load)).toBeUndefined();
    expect(await cache.get('k', loader.load)).toBe('created');
    expect(loader.calls).toBe(2);
  });

  it('serves a stale value when a reload fails within maxStaleMs', async () => {
    const time = manualClock();
    const cache = new TtlCache<string>({ ttlMs: 1000, maxStaleMs: 5000, clock: time.clock });
    await cache.get('k', async () => 'good');
    time.advance(4999);
    expect(await cache.get('k', async () => Promise.reject(new Error('store down')))).toBe('good');
  });

  it('rethrows the load failure once the stale value is older than maxStaleMs', async () => {
    const time = manualClock();
    const cache = new TtlCache<string>({ ttlMs: 1000, maxStaleMs: 5000, clock: time.clock });
    await cache.get('k', async () => 'good');
    time.advance(5000);
    const failure = new Error('store down');
    await expect(cache.get('k', async () => Promise.reject(failure))).rejects.toBe(failure);
  });

  it('rethrows a load failure when nothing was ever loaded', async () => {
    const cache = new TtlCache<string>({ ttlMs: 1000, maxStaleMs: 5000, clock: manualClock().clock });
    const failure = new Error('store down');
    await expect(cache.get('k', async () => Promise.reject(failure))).rejects.toBe(failure);
  });

  it('does not share a failed load with later gets', async () => {
    const cache = new TtlCache<string>({ ttlMs: 1000, maxStaleMs: 0, clock: manualClock().clock });
    await expect(cache.get('k', async () => Promise.reject(new Error('once')))).rejects.toThrow('once');
    expect(await cache.get('k', async () => 'recovered')).toBe('recovered');
  });

  it('forgets a key on invalidate and everything on clear', async () => {
    const cache = new TtlCache<string>({ ttlMs: 60_000, maxStaleMs: 0, clock: manualClock().clock });
    await cache.get('a', async () => 'A1');
    await cache.get('b', async () => 'B1');
    cache.invalidate('a');
    expect(await cache.get('a', async () => 'A2')).toBe('A2');
    expect(await cache.get('b', async () => 'B2')).toBe('B1');
    cache.clear();
    expect(await cache.get('b', async () => 'B3')).toBe('B3');
  });

  it('evicts the oldest entry when maxEntries is reached', async () => {
    const cache = new TtlCache<string>({ ttlMs: 60_000, maxStaleMs: 0, clock: manualClock().clock, maxEntries: 2 });
    await cache.get('a', async () => 'A1');
    await cache.get('b', async () => 'B1');
    await cache.get('c', async () => 'C1');
    expect(await cache.get('b', async () => 'B2')).toBe('B1');
    expect(await cache.get('c', async () => 'C2')).toBe('C1');
    expect(await cache.get('a', async () => 'A2')).toBe('A2');
  });

  it('does not evict another entry when refreshing a key it already holds at capacity', async () => {
    const time = manualClock();
    const cache = new TtlCache<string>({ ttlMs: 1000, maxStaleMs: 0, clock: time.clock, maxEntries: 2 });
    await cache.get('a', async () => 'A1');
    await cache.get('b', async () => 'B1');
    time.advance(1000);
    expect(await cache.get('a', async () => 'A2')).toBe('A2');
    time.advance(500);
    // "b" expired, "a" is fresh; refreshing "b" must not push "a" (the oldest inserted) out.
    expect(await cache.get('b', async () => 'B2')).toBe('B2');
    expect(await cache.get('a', async () => 'A3')).toBe('A2');
  });

  it('dates a loaded value from when the load finished, not when it started', async () => {
    const time = manualClock();
    const cache = new TtlCache<string>({ ttlMs: 1000, maxStaleMs: 0, clock: time.clock });
    await cache.get('k', async () => {
      time.advance(800);
      return 'slow';
    });
    time.advance(900);
    expect(await cache.get('k', async () => 'reloaded')).toBe('slow');
  });
});

describe('TtlCache.invalidate during a load', () => {
  it('does not keep a value whose load began before the invalidation', async () => {
    const cache = new TtlCache<string>({ ttlMs: 60_000, maxStaleMs: 0, clock: manualClock().clock });
    let release: (value: string) => void = () => {};
    const inFlight = cache.get('key-hash', () => new Promise<string>((resolve) => (release = resolve)));
    // The admin revokes the key while the request path is still reading the old record.
    cache.invalidate('key-hash');
    release('active record');
    expect(await inFlight).toBe('active record');
    expect(await cache.get('key-hash', async () => 'revoked record')).toBe('revoked record');
  });

  it('does not keep a value whose load began before a clear', async () => {
    const cache = new TtlCache<string>({ ttlMs: 60_000, maxStaleMs: 0, clock: manualClock().clock });
    let release: (value: string) => void = () => {};
    const inFlight = cache.get('org', () => new Promise<string>((resolve) => (release = resolve)));
    cache.clear();
    release('old rates');
    await inFlight;
    expect(await cache.get('org', async () => 'new rates')).toBe('new rates');
  });

  describe('with refreshAheadMs', () => {
    const options = (time: ReturnType<typeof manualClock>) => ({ ttlMs: 30_000, refreshAheadMs: 5_000, maxStaleMs: 60_000, clock: time.clock });

    it('answers a use in the last stretch of the TTL at once, and reloads in the background for the next use', async () => {
      const time = manualClock();
      const cache = new TtlCache<string>(options(time));
      let release: (value: string) => void = () => {};
      let calls = 0;
      const load = () => (++calls === 1 ? Promise.resolve('v1') : new Promise<string>((resolve) => (release = resolve)));
      expect(await cache.get('k', load)).toBe('v1');
      time.advance(24_999);
      expect(await cache.get('k', load)).toBe('v1');
      expect(calls).toBe(1);
      time.advance(1);
      // Due: answered from memory while the reload runs, and a second use does not start another.
      expect(await cache.get('k', load)).toBe('v1');
      expect(await cache.get('k', load)).toBe('v1');
      expect(calls).toBe(2);
      release('v2');
      await Promise.resolve();
      time.advance(10_000);
      // Past the first value's TTL: the reloaded one is served, no request having waited for it.
      expect(await cache.get('k', load)).toBe('v2');
      expect(calls).toBe(2);
    });

    it('never serves a value past its TTL: a use after it waits for the reload, or shares the one running', async () => {
      const time = manualClock();
      const cache = new TtlCache<string>(options(time));
      const loader = countingLoader(async (call) => `v${call}`);
      await cache.get('k', loader.load);
      time.advance(30_000);
      expect(await cache.get('k', loader.load)).toBe('v2');
      expect(loader.calls).toBe(2);
    });

    it('keeps the value until its TTL when the background reload fails, and loads at the first use after it', async () => {
      const time = manualClock();
      const cache = new TtlCache<string>(options(time));
      const loader = countingLoader(async (call) => {
        if (call === 2) throw new Error('store unreachable');
        return `v${call}`;
      });
      await cache.get('k', loader.load);
      time.advance(26_000);
      expect(await cache.get('k', loader.load)).toBe('v1');
      await new Promise((resolve) => setImmediate(resolve));
      expect(loader.calls).toBe(2);
      time.advance(4_000);
      expect(await cache.get('k', loader.load)).toBe('v3');
    });

    it('does not keep a background reload that began before an invalidation (a revoked key stays revoked)', async () => {
      const time = manualClock();
      const cache = new TtlCache<string>(options(time));
      let release: (value: string) => void = () => {};
      let calls = 0;
      const load = () => (++calls === 2 ? new Promise<string>((resolve) => (release = resolve)) : Promise.resolve(calls === 1 ? 'active' : 'revoked'));
      await cache.get('key-hash', load);
      time.advance(26_000);
      expect(await cache.get('key-hash', load)).toBe('active');
      cache.invalidate('key-hash');
      release('active');
      await Promise.resolve();
      expect(await cache.get('key-hash', load)).toBe('revoked');
    });

    it('does not refresh a remembered miss ahead of time', async () => {
      const time = manualClock();
      const cache = new TtlCache<string | undefined>({ ...options(time), missTtlMs: 5_000 });
      const loader = countingLoader(async () => undefined);
      await cache.get('unknown', loader.load);
      time.advance(4_999);
      await cache.get('unknown', loader.load);
      expect(loader.calls).toBe(1);
    });
  });
});
