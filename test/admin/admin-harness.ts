import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DynamoAuditTrail } from '../../shared/adapters/aws/dynamo-audit-trail.ts';
import { DynamoKeyStore } from '../../shared/adapters/aws/dynamo-key-store.ts';
import { DynamoMembershipStore } from '../../shared/adapters/aws/dynamo-membership-store.ts';
import { DynamoProjectStore } from '../../shared/adapters/aws/dynamo-project-store.ts';
import { DynamoUsageLedger } from '../../shared/adapters/aws/dynamo-usage-ledger.ts';
import { DynamoProjectBalance } from '../../shared/adapters/aws/dynamo-project-balance.ts';
import { FileProviderSecrets } from '../../shared/adapters/local/file-provider-secrets.ts';
import type { AdminResult } from '../../shared/admin/admin-command.ts';
import type { AdminServices } from '../../shared/admin/admin-services.ts';
import type { describeProject } from '../../shared/admin/describe-project.ts';
import { runAdminCommand } from '../../shared/admin/run-admin-command.ts';
import type { describeKey } from '../../shared/core/key-record.ts';
import { ADMIN_CLI_ACTOR } from '../../shared/core/audit-entry.ts';
import { createConfigCaches } from '../../shared/pipeline/config-caches.ts';
import { startEmbeddedStore } from '../../tools/local-host/embedded-store.ts';
import { embeddedStoreDocuments } from '../../shared/wiring/dynamo-documents.ts';

export type ProjectView = ReturnType<typeof describeProject> & { warning?: string };
export type KeyView = ReturnType<typeof describeKey>;
export type CreatedKeyView = KeyView & { key: string };
export type AdminFailure = Extract<AdminResult, { ok: false }>['error'];

export const START_TIME = '2025-01-02T03:04:05.000Z';
export const TABLES = { keys: 'admin-test-keys', projects: 'admin-test-projects', generations: 'admin-test-generations' };

export interface AdminHarness {
  services: AdminServices;
  keys: DynamoKeyStore;
  projects: DynamoProjectStore;
  secrets: FileProviderSecrets;
  /** Sets the fixed clock to another instant. */
  setTime(iso: string): void;
  /** Every answer given so far, to check what never appears in one. */
  answers: AdminResult[];
  run(event: unknown, overrides?: Partial<AdminServices>): Promise<AdminResult>;
  /** Runs a command that must succeed and returns its result. */
  ok<T>(event: Record<string, unknown>, overrides?: Partial<AdminServices>): Promise<T>;
  /** Runs a command that must be refused and returns the refusal. */
  refused(event: unknown, overrides?: Partial<AdminServices>): Promise<AdminFailure>;
  /** The writer's ledger on the same store, to settle usage as the writer would. */
  usageLedger(): DynamoUsageLedger;
  /** Every item of a table, as stored. */
  scan(table: string): Promise<Record<string, unknown>[]>;
  close(): Promise<void>;
}

/** Real adapters on a throw-away embedded store and secret file, a fixed clock and fresh caches. */
export async function startAdminHarness(): Promise<AdminHarness> {
  const dir = await mkdtemp(join(tmpdir(), 'admin-command-'));
  const store = await startEmbeddedStore(join(dir, 'store'), TABLES);
  const documents = embeddedStoreDocuments(store.endpoint);
  let now = Date.parse(START_TIME);
  const clock = { now: () => now };
  const keys = new DynamoKeyStore(documents, TABLES.keys);
  const projects = new DynamoProjectStore(documents, TABLES.projects);
  const secrets = new FileProviderSecrets(join(dir, 'secrets.json'));
  const services: AdminServices = {
    keys,
    projects,
    secrets,
    balances: new DynamoProjectBalance(documents, TABLES.projects),
    memberships: new DynamoMembershipStore(documents, TABLES.projects),
    audit: new DynamoAuditTrail(documents, TABLES.projects),
    clock,
    randomBytes: (size) => randomBytes(size),
    caches: createConfigCaches(clock),
    allowPrivateUpstreams: false,
  };
  const answers: AdminResult[] = [];
  const run = async (event: unknown, overrides: Partial<AdminServices> = {}) => {
    const answer = await runAdminCommand({ ...services, ...overrides }, event, ADMIN_CLI_ACTOR);
    answers.push(answer);
    return answer;
  };
  return {
    services,
    keys,
    projects,
    secrets,
    setTime(iso) {
      now = Date.parse(iso);
    },
    answers,
    run,
    usageLedger: () => new DynamoUsageLedger(documents, { generations: TABLES.generations, projects: TABLES.projects, retentionDays: 90 }),
    async ok<T>(event: Record<string, unknown>, overrides?: Partial<AdminServices>) {
      const answer = await run(event, overrides);
      if (!answer.ok) throw new Error(`${String(event.command)} was refused: ${answer.error.code} ${answer.error.message}`);
      return answer.result as T;
    },
    async refused(event, overrides) {
      const answer = await run(event, overrides);
      if (answer.ok) throw new Error(`expected a refusal, got ${JSON.stringify(answer.result)}`);
      return answer.error;
    },
    async scan(table) {
      const { Items } = await documents.scan({ TableName: table });
      return Items ?? [];
    },
    async close() {
      await store.close();
      await rm(dir, { recursive: true, force: true });
    },
  };
}
