import type { KeyRecord } from './key-record.ts';
import type { UsageRecord } from './usage-record.ts';
import type { AllowedModel, OrgRateCard, Project, ProjectConfig, ProviderConfig, RateCardEntry } from './project-config.ts';

/**
 * Ports: the small interfaces through which the core reaches storage, secrets, time and the network.
 * Each has an AWS adapter and a local one. Store failures surface as thrown errors; the caller decides
 * (the request path turns them into 503).
 */

/** Project keys, looked up by the SHA-256 of the key; the key itself is never stored. */
export interface KeyStore {
  findByHash(keyHash: string): Promise<KeyRecord | undefined>;
  put(record: KeyRecord): Promise<void>;
  listForProject(projectId: string): Promise<KeyRecord[]>;
  /** Marks the key revoked; returns the updated record, or undefined when the project has no such key. */
  revoke(projectId: string, keyId: string, revokedAt: string): Promise<KeyRecord | undefined>;
}

/** Reads everything the request path needs about a project in one go. */
export interface ProjectConfigSource {
  loadProjectConfig(projectId: string): Promise<ProjectConfig | undefined>;
  loadOrgRateCard(): Promise<OrgRateCard>;
}

/** Writes of the admin function. */
export interface ProjectAdminStore {
  /** Returns false when `mustNotExist` is set and the project already exists. */
  putProject(project: Project, options: { mustNotExist: boolean }): Promise<boolean>;
  putProvider(projectId: string, provider: ProviderConfig): Promise<void>;
  putModel(projectId: string, model: AllowedModel, rate: RateCardEntry | undefined): Promise<void>;
  removeModel(projectId: string, slug: string): Promise<boolean>;
}

export interface OrgRateCardStore {
  putOrgRate(entry: RateCardEntry): Promise<void>;
}

/** Provider API keys. Only the secret store holds them; nothing else logs or returns them. */
export interface ProviderSecrets {
  getApiKey(projectId: string, provider: string): Promise<string | undefined>;
  putApiKey(projectId: string, provider: string, apiKey: string): Promise<void>;
}

export interface Clock {
  /** Milliseconds since the epoch. */
  now(): number;
}

/** Cryptographically secure random bytes. */
export type RandomBytes = (size: number) => Uint8Array;

/** The upstream transport: fetch-shaped so tests, the mock provider and real providers share one path. */
export type UpstreamFetch = (url: string, init: RequestInit) => Promise<Response>;

/** Where the request path hands each usage record (SQS in AWS, an in-process queue locally). */
export interface UsageSink {
  send(record: UsageRecord): Promise<void>;
}

/** The generation lookup: a project's most recent record for a request id. */
export interface GenerationLookup {
  findGeneration(projectId: string, requestId: string): Promise<UsageRecord | undefined>;
}

/**
 * The writer's store. `recordOnce` stores the record and adds its cost to the project's spend in one
 * atomic step, at most once per `recordId`; it answers false for a record it has already applied.
 */
export interface UsageLedger {
  recordOnce(record: UsageRecord): Promise<boolean>;
}

/** The usage files accountants query (S3 in AWS, the data directory locally); idempotent per record. */
export interface UsageArchive {
  put(record: UsageRecord): Promise<void>;
}

/** A project's metered spend and, for prepaid projects, its credit (balance = credit − spend). */
export interface ProjectUsageTotals {
  spentNanos: number;
  requestCount: number;
  /** Absent for postpaid projects. */
  creditNanos?: number;
}

export interface ProjectBalanceStore {
  loadUsageTotals(projectId: string): Promise<ProjectUsageTotals>;
  /** Sets the balance to `balanceNanos` (credit = spend + balance), or removes it (postpaid) with undefined. */
  setBalance(projectId: string, balanceNanos: number | undefined): Promise<void>;
  /** Adds to the credit of a prepaid project (or starts one at spend + amount). */
  addCredit(projectId: string, nanos: number): Promise<void>;
}
