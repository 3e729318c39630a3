import type { AuditEntry } from './audit-entry.ts';
import type { KeyRecord } from './key-record.ts';
import type { Membership } from './membership.ts';
import type { McpServerConfig } from './mcp-server-config.ts';
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
  /**
   * Changes a key's name, enabled state or rate limit (`null` removes the limit); undefined when there is no
   * such key. A revoked key is never changed (revocation is for good): it is returned as it is, `revokedAt` set.
   */
  update(projectId: string, keyId: string, changes: KeyChanges): Promise<KeyRecord | undefined>;
}

export interface KeyChanges {
  name?: string;
  disabled?: boolean;
  /** Who disables the key (with `disabled: true`); enabling it forgets who had disabled it. */
  disabledBy?: string;
  rpm?: number | null;
  /** The key's tool-bridge allowlists; `null` removes one (every server, every tool), `[]` allows nothing. */
  mcpServers?: string[] | null;
  mcpTools?: string[] | null;
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
  /** Returns false when the project has no such provider. */
  removeProvider(projectId: string, provider: string): Promise<boolean>;
  putModel(projectId: string, model: AllowedModel, rate: RateCardEntry | undefined): Promise<void>;
  removeModel(projectId: string, slug: string): Promise<boolean>;
  /** Adds or replaces an upstream MCP server of the tool bridge. */
  putMcpServer(projectId: string, server: McpServerConfig): Promise<void>;
  /** Returns false when the project has no such server. */
  removeMcpServer(projectId: string, name: string): Promise<boolean>;
  /** Every project (the records alone, without providers or models), in no particular order. */
  listProjects(): Promise<Project[]>;
}

export interface OrgRateCardStore {
  putOrgRate(entry: RateCardEntry): Promise<void>;
}

/** Provider API keys. Only the secret store holds them; nothing else logs or returns them. */
export interface ProviderSecrets {
  getApiKey(projectId: string, provider: string): Promise<string | undefined>;
  putApiKey(projectId: string, provider: string, apiKey: string): Promise<void>;
  /** Deletes the key for good (nothing to recover); deleting a key that does not exist is not an error. */
  deleteApiKey(projectId: string, provider: string): Promise<void>;
}

export interface Clock {
  /** Milliseconds since the epoch. */
  now(): number;
}

/** Cryptographically secure random bytes. */
export type RandomBytes = (size: number) => Uint8Array;

/** The upstream transport: fetch-shaped so tests, the mock provider and real providers share one path. */
export type UpstreamFetch = (url: string, init: RequestInit) => Promise<Response>;

/** AWS credentials, as a request signer takes them. */
export interface AwsCredentials {
  accessKeyId: string;
  secretAccessKey: string;
  sessionToken?: string;
}

/**
 * The gateway's own AWS credentials, for signing calls to AWS-hosted providers (Bedrock): the default
 * chain (in Lambda the function's role, locally the environment or ~/.aws), or a named local profile.
 * Implementations cache and refresh them; a failure to find any is thrown.
 */
export interface AwsCredentialSource {
  credentials(profile: string | undefined): Promise<AwsCredentials>;
}

/** Where the request path hands each usage record (SQS in AWS, the local host's durable queue locally). */
export interface UsageSink {
  send(record: UsageRecord): Promise<void>;
  /**
   * The record a request will send once its answer ends, provisional (the prompt estimated, no output yet).
   * A sink that can keep it (the local journal) delivers it should the process stop before the real one
   * (same record id) is sent; a sink that cannot leaves this out.
   */
  expect?(record: UsageRecord): void;
}

/** What the gateway remembers of past generations: the records, and who made the answers providers store. */
export interface GenerationLookup {
  /**
   * A project's most recent record for an id: a request id, else the id its answer's body carried (the
   * upstream's `chatcmpl-…`, a translated `msg_…`), recorded as the record's `answerId`.
   */
  findGeneration(projectId: string, id: string): Promise<UsageRecord | undefined>;
  /**
   * The project and provider that made a stored upstream answer (a Responses `resp_…` id), once its usage
   * record was written; undefined for an id the gateway never relayed (or not yet recorded).
   */
  findStoredResponse(responseId: string): Promise<StoredResponseOwner | undefined>;
}

/** Who made a stored upstream answer: only that project may reach it, only through that provider. */
export interface StoredResponseOwner {
  projectId: string;
  provider: string;
  /** Slug of the model that made it. */
  model: string;
  /** The gateway request that made it. */
  requestId: string;
}

/** What the ledger did with one record: applied it now, found it applied before (a redelivery), or failed. */
export type LedgerOutcome = 'applied' | 'already-applied' | { failed: unknown };

/**
 * An asynchronous video job a project created: who may reach it (its project only), through which provider,
 * and the video object as the gateway last saw it (what the project's list shows).
 */
export interface VideoJob {
  projectId: string;
  videoId: string;
  provider: string;
  /** Slug of the model that makes it. */
  model: string;
  /** The gateway request that created it, and the key that sent it (its completion is recorded under them). */
  requestId: string;
  keyId: string;
  createdAt: string;
  video: Record<string, unknown>;
  /** When the gateway recorded the finished video's seconds (or gave back what it held for a failed one): at most once. */
  billedAt?: string;
  /**
   * What a prepaid project still holds for the video's seconds, in nano-USD, from its creation (which
   * reserved them) until they are recorded; given back if the video fails or is deleted first.
   */
  heldNanos?: number;
  deletedAt?: string;
}

/**
 * The video jobs of each project, kept from their creation (so that one project never reaches another's)
 * until they expire. Store failures surface as thrown errors.
 */
export interface VideoJobStore {
  /**
   * Adds a job, or replaces what is known of it (its latest video object, its deletion), but never its
   * `billedAt`: only claimBilling sets that, so a request saving an older copy cannot undo a claim.
   */
  save(job: VideoJob): Promise<void>;
  /** A project's job; undefined for another project's or an unknown one. */
  find(projectId: string, videoId: string): Promise<VideoJob | undefined>;
  /** Every job of a project still kept, in no particular order. */
  list(projectId: string): Promise<VideoJob[]>;
  /** Marks the job billed, once: true for the one caller that marked it, false when it already was. */
  claimBilling(projectId: string, videoId: string, at: string): Promise<boolean>;
}

/**
 * The writer's store. `recordAll` stores each record and adds its cost to its project's spend, a record
 * and its cost atomically, at most once per `recordId` (one id twice in a batch is applied once); one
 * outcome per record, in order. A failed record changed nothing and may be given again.
 */
export interface UsageLedger {
  recordAll(records: readonly UsageRecord[]): Promise<LedgerOutcome[]>;
}

/**
 * The usage files accountants query: objects under `usage/dt=YYYY-MM-DD/` (an S3 bucket in AWS, the data
 * directory locally). Keys are relative to the bucket or directory. A written object appears whole or not
 * at all, and nothing is ever appended to.
 */
export interface UsageArchive {
  write(key: string, body: Uint8Array): Promise<void>;
  /** The keys of the objects under `prefix`, in no particular order. */
  list(prefix: string): Promise<string[]>;
  read(key: string): Promise<Uint8Array>;
  /** Removing a key that is already gone is not an error. */
  remove(keys: readonly string[]): Promise<void>;
}

/** A project's metered spend and, for prepaid projects, what its balance has left: BigInt, as both outgrow 2^53 nano-USD. */
export interface ProjectUsageTotals {
  spentNanos: bigint;
  requestCount: number;
  /** The balance minus spend and minus reservations of requests in flight; absent when never set. */
  availableNanos?: bigint;
  /** What the reservations of requests in flight hold (settled back into the balance as they end); absent when none was ever made. */
  reservedNanos?: bigint;
}

export interface ProjectBalanceStore {
  loadUsageTotals(projectId: string): Promise<ProjectUsageTotals>;
  /** Sets what is available, or removes it (postpaid) with undefined. */
  setBalance(projectId: string, balanceNanos: bigint | undefined): Promise<void>;
  addCredit(projectId: string, nanos: bigint): Promise<void>;
  /** Takes `nanos` from the balance if it covers them (atomically); false when it does not. */
  reserve(projectId: string, nanos: number): Promise<boolean>;
  /** Gives a reservation back (a request that never reached an upstream). */
  release(projectId: string, nanos: number): Promise<void>;
}

/** One fixed window of a limit: `amount` is taken only if the window's count stays within `limit`. */
export interface LimitCharge {
  /** Unique per limit and window, e.g. `rpm#key#key_abc#29588760`. */
  counterKey: string;
  limit: number;
  amount: number;
  /** When the window ends (ms since the epoch): the counter expires after it. */
  windowEndsAt: number;
}

export type LimitDecision =
  | { allowed: true; counts: number[] }
  | { allowed: false; refusedIndex: number };

export interface RateLimiter {
  /**
   * Takes each charge's amount from its window, all or none: if one would pass its limit, the ones
   * already taken are given back and the decision names the refused charge.
   */
  acquire(charges: readonly LimitCharge[]): Promise<LimitDecision>;
  /** Adds to a window without checking its limit (the correction once the real token count is known). */
  adjust(counterKey: string, amount: number, windowEndsAt: number): Promise<void>;
}

/** Who belongs to which project, and with which role; readable both ways (a project's people, a person's projects). */
export interface MembershipStore {
  /** Adds the membership, or changes its role. */
  put(membership: Membership): Promise<void>;
  /** False when the person was not a member. */
  remove(projectId: string, member: string): Promise<boolean>;
  listForProject(projectId: string): Promise<Membership[]>;
  listForMember(member: string): Promise<Membership[]>;
}

/** The append-only record of changes that a project's owners can read. */
export interface AuditTrail {
  append(entry: AuditEntry): Promise<void>;
  /** The project's most recent entries, newest first. */
  listRecent(projectId: string, limit: number): Promise<AuditEntry[]>;
}

/** Stamps when a key was last used; the usage writer calls it, so the request path does no extra write. */
export interface KeyLastUseRecorder {
  /** Moves the key's last use forward to `usedAt` (never back); a key that no longer exists is ignored. */
  recordLastUse(projectId: string, keyId: string, usedAt: string): Promise<void>;
}

/** A row of a usage query: column name → JSON value (integers as numbers, or decimal strings when too large). */
export type UsageResultRow = Record<string, string | number | boolean | null>;

/**
 * Runs SQL over the usage files: Athena in AWS, DuckDB on the local host. The SQL must be valid in both
 * (shared/usage-writer/usage-table.ts explains the subset); `?` placeholders take `params` in order, as
 * string literals.
 */
export interface UsageQueryRunner {
  query(sql: string, params: readonly string[]): Promise<UsageResultRow[]>;
}
