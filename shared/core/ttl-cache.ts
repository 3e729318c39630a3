import type { Clock } from './ports.ts';

interface Entry<V> {
  value: V;
  loadedAt: number;
}

export interface TtlCacheOptions {
  ttlMs: number;
  maxStaleMs: number;
  clock: Clock;
  maxEntries?: number;
  /** How long a miss (undefined) is remembered; not at all unless set. */
  missTtlMs?: number;
  /**
   * How long before a value expires a use of it starts its reload in the background: under steady traffic
   * no request waits for a reload, and no value is served past its TTL. Off unless set.
   */
  refreshAheadMs?: number;
}

/**
 * A small read-through cache so the hot path does no store read per request. Loads of the same key
 * in flight are shared. When a reload fails, a stale value younger than `maxStaleMs` is served instead
 * (the store being briefly unreachable should not refuse traffic that was just being served).
 */
export class TtlCache<V> {
  private readonly entries = new Map<string, Entry<V>>();
  private readonly inFlight = new Map<string, Promise<V>>();
  /** Bumped by invalidate and clear, so that a load begun before them does not store what it read. */
  private generation = 0;

  private readonly options: TtlCacheOptions;

  constructor(options: TtlCacheOptions) {
    this.options = options;
  }

  async get(key: string, load: () => Promise<V>): Promise<V> {
    const now = this.options.clock.now();
    const entry = this.entries.get(key);
    if (entry && now - entry.loadedAt < (entry.value === undefined ? (this.options.missTtlMs ?? 0) : this.options.ttlMs)) {
      if (entry.value !== undefined && this.dueForRefresh(entry, now) && !this.inFlight.has(key)) {
        // Its failure changes nothing: the value stays until its TTL, and the first use after that loads.
        this.startLoad(key, load, entry, now).catch(() => undefined);
      }
      return entry.value;
    }
    return this.inFlight.get(key) ?? this.startLoad(key, load, entry, now);
  }

  private dueForRefresh(entry: Entry<V>, now: number): boolean {
    const ahead = this.options.refreshAheadMs;
    return ahead !== undefined && now - entry.loadedAt >= this.options.ttlMs - ahead;
  }

  /** One load of the key at a time: those who ask while it runs share it. */
  private async startLoad(key: string, load: () => Promise<V>, stale: Entry<V> | undefined, now: number): Promise<V> {
    const loading = this.load(key, load, stale, now);
    this.inFlight.set(key, loading);
    try {
      return await loading;
    } finally {
      // An invalidation may have put a newer load in its place.
      if (this.inFlight.get(key) === loading) this.inFlight.delete(key);
    }
  }

  /** Forgets the key; a load of it already running is no longer shared, so the next use reads afresh. */
  invalidate(key: string): void {
    this.entries.delete(key);
    this.inFlight.delete(key);
    this.generation++;
  }

  clear(): void {
    this.entries.clear();
    this.inFlight.clear();
    this.generation++;
  }

  private async load(key: string, load: () => Promise<V>, stale: Entry<V> | undefined, now: number): Promise<V> {
    const generation = this.generation;
    try {
      const value = await load();
      // Misses are remembered only as briefly as missTtlMs says: what is created a moment later must work soon.
      if ((value !== undefined || this.options.missTtlMs) && generation === this.generation) this.remember(key, value);
      return value;
    } catch (error) {
      if (stale && stale.value !== undefined && now - stale.loadedAt < this.options.maxStaleMs) return stale.value;
      throw error;
    }
  }

  private remember(key: string, value: V): void {
    const maxEntries = this.options.maxEntries ?? 10_000;
    if (this.entries.size >= maxEntries && !this.entries.has(key)) {
      const oldest = this.entries.keys().next();
      if (!oldest.done) this.entries.delete(oldest.value);
    }
    this.entries.set(key, { value, loadedAt: this.options.clock.now() });
  }
}
