import type { KeyRecord } from '../core/key-record.ts';
import type { Clock } from '../core/ports.ts';
import type { OrgRateCard, ProjectConfig } from '../core/project-config.ts';
import { TtlCache } from '../core/ttl-cache.ts';

/**
 * Short-lived caches of configuration, so the hot path does no store read per request. A revoked key
 * stops working within KEY_TTL_MS everywhere, and at once in the process that revoked it (the admin
 * function invalidates its caches; the local host gives the route groups and the admin function one set).
 */
export const KEY_TTL_MS = 30_000;
/**
 * Unknown keys are remembered this long, so a client repeating a wrong key costs one store read, not one
 * per request; a key created since is refused at most this long on instances that saw it refused (at once
 * where the admin function shares the process: it invalidates the hash).
 */
export const UNKNOWN_KEY_TTL_MS = 5_000;
const CONFIG_TTL_MS = 30_000;
/** How long a stale configuration may still be served while the store is unreachable. */
const MAX_STALE_MS = 5 * 60_000;
const PROVIDER_KEY_TTL_MS = 5 * 60_000;
/**
 * A value used in its last sixth is reloaded in the background (TtlCache's refreshAheadMs): with steady
 * traffic no request waits for the store every 30 s (in AWS a DynamoDB read, in the local host a hop to the
 * backend process), and no value outlives its TTL.
 */
const refreshAhead = (ttlMs: number) => Math.round(ttlMs / 6);

export interface ConfigCaches {
  keys: TtlCache<KeyRecord | undefined>;
  projects: TtlCache<ProjectConfig | undefined>;
  orgRates: TtlCache<OrgRateCard>;
  providerKeys: TtlCache<string | undefined>;
}

export function createConfigCaches(clock: Clock): ConfigCaches {
  return {
    keys: new TtlCache({ ttlMs: KEY_TTL_MS, missTtlMs: UNKNOWN_KEY_TTL_MS, refreshAheadMs: refreshAhead(KEY_TTL_MS), maxStaleMs: MAX_STALE_MS, clock }),
    projects: new TtlCache({ ttlMs: CONFIG_TTL_MS, refreshAheadMs: refreshAhead(CONFIG_TTL_MS), maxStaleMs: MAX_STALE_MS, clock }),
    orgRates: new TtlCache({ ttlMs: CONFIG_TTL_MS, refreshAheadMs: refreshAhead(CONFIG_TTL_MS), maxStaleMs: MAX_STALE_MS, clock }),
    providerKeys: new TtlCache({ ttlMs: PROVIDER_KEY_TTL_MS, refreshAheadMs: refreshAhead(PROVIDER_KEY_TTL_MS), maxStaleMs: MAX_STALE_MS, clock }),
  };
}
