import { randomBytes } from 'node:crypto';
import { CoolDown } from '../../shared/core/cool-down.ts';
import { hashProjectKey } from '../../shared/core/project-keys.ts';
import type { AllowedModel, Project, ProjectConfig, ProviderConfig, RateCardEntry } from '../../shared/core/project-config.ts';
import type { UpstreamFetch } from '../../shared/core/ports.ts';
import type { UsageRecord } from '../../shared/core/usage-record.ts';
import { createConfigCaches } from '../../shared/pipeline/config-caches.ts';
import { MemoryVideoJobs } from './memory-video-jobs.ts';
import type { GatewayServices } from '../../shared/pipeline/gateway-services.ts';

export const FAKE_KEY = `gw.${'UnitTestKey'.padEnd(43, '0')}`;
const AT = '2025-01-01T00:00:00.000Z';

export interface FakeGateway {
  services: GatewayServices;
  /** Every usage record the request path handed over. */
  records: UsageRecord[];
  /** Every provisional record it left, should the process stop (with `keepsProvisionalRecords`, as the local host's queue does). */
  provisional: UsageRecord[];
  /** Net balance changes: reservations taken minus those given back (settlement is the writer's). */
  reservedNanos: () => number;
}

/**
 * The request path's services in memory, for cheap unit tests of the pipeline and route groups: one
 * project (`acme`, prepaid when `balanceNanos` is set) with the given providers and models, one key
 * (FAKE_KEY), and the given upstream transport.
 */
export function createFakeGateway(options: {
  providers: ProviderConfig[];
  models: Array<Pick<AllowedModel, 'slug'> & Partial<AllowedModel>>;
  rates?: RateCardEntry[];
  fetch: UpstreamFetch;
  balanceNanos?: number;
  /** Settings of the project beyond the defaults (pass-through, an access policy). */
  project?: Partial<Project>;
  /** A usage sink that keeps provisional records, as the local host's durable queue does (SQS does not). */
  keepsProvisionalRecords?: boolean;
}): FakeGateway {
  const records: UsageRecord[] = [];
  const provisional: UsageRecord[] = [];
  let reserved = 0;
  const config: ProjectConfig = {
    project: { projectId: 'acme', name: 'acme', plan: 'active', usageInjection: false, failover: false, mcp: false, createdAt: AT, updatedAt: AT, ...(options.balanceNanos !== undefined ? { prepaid: true } : {}), ...options.project },
    providers: new Map(options.providers.map((provider) => [provider.provider, provider])),
    models: options.models.map((model) => {
      const slash = model.slug.indexOf('/');
      return { provider: model.slug.slice(0, slash), model: model.slug.slice(slash + 1), kind: 'chat', createdAt: AT, ...model };
    }),
    rates: new Map((options.rates ?? []).map((rate) => [rate.slug, rate])),
  };
  const clock = { now: () => Date.now() };
  const services: GatewayServices = {
    keys: { findByHash: async (hash) => (hash === hashProjectKey(FAKE_KEY) ? { keyHash: hash, keyId: 'key_1', projectId: 'acme', name: 'test', hint: 'gw.…0000', createdAt: AT } : undefined) },
    projects: { loadProjectConfig: async (projectId) => (projectId === 'acme' ? config : undefined), loadOrgRateCard: async () => new Map() },
    secrets: { getApiKey: async () => 'sk-upstream-0123456789' },
    fetch: options.fetch,
    awsCredentials: { credentials: async () => ({ accessKeyId: 'AKIDFAKEGATEWAY', secretAccessKey: 'fake-secret-access-key' }) },
    clock,
    randomBytes: (size) => randomBytes(size),
    caches: createConfigCaches(clock),
    settings: { upstreamFirstByteTimeoutMs: 5_000, requestDeadlineMs: 10_000, heartbeatIntervalMs: 15_000, behindCloudFront: false },
    coolDown: new CoolDown(clock),
    usageSink: { send: async (record) => void records.push(record), ...(options.keepsProvisionalRecords ? { expect: (record: UsageRecord) => void provisional.push(record) } : {}) },
    generations: { findGeneration: async () => undefined, findStoredResponse: async () => undefined },
    videoJobs: new MemoryVideoJobs(),
    rateLimiter: { acquire: async (charges) => ({ allowed: true, counts: charges.map((charge) => charge.amount) }), adjust: async () => {} },
    balances: {
      reserve: async (_projectId, nanos) => ((reserved += nanos), true),
      release: async (_projectId, nanos) => void (reserved -= nanos),
      loadUsageTotals: async () => ({ spentNanos: 0n, requestCount: 0 }),
    },
    reportUnsentUsage: () => {},
    reportMalformedUpstreamEvent: () => {},
  };
  return { services, records, provisional, reservedNanos: () => reserved };
}

export function fakeProvider(name: string, protocols: ProviderConfig['protocols'], auth: ProviderConfig['auth'] = 'bearer'): ProviderConfig {
  return { provider: name, protocols, auth, baseUrl: `https://${name}.example/v1`, hasApiKey: true, updatedAt: AT };
}
