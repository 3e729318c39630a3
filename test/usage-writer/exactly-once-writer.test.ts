import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, GetCommand, paginateScan } from '@aws-sdk/lib-dynamodb';
import { afterEach, describe, expect, it } from 'vitest';
import { DynamoUsageLedger, generationKey } from '../../shared/adapters/aws/dynamo-usage-ledger.ts';
import { FileUsageArchive } from '../../shared/adapters/local/file-usage-archive.ts';
import type { UsageArchive, UsageLedger } from '../../shared/core/ports.ts';
import { usageRecordSchema, type UsageRecord } from '../../shared/core/usage-record.ts';
import { startEmbeddedStore } from '../../tools/local-host/embedded-store.ts';
import { processUsageBatch } from '../../shared/usage-writer/process-usage-batch.ts';
import { serializeUsageRow, usageObjectKey } from '../../shared/usage-writer/usage-row.ts';
import { sampleRecord, usageMessage } from '../support/sample-usage-record.ts';

/**
 * The acceptance test of the usage writer: every record delivered 1–3 times, shuffled, in batches of up to
 * ten, while ~10% of ledger and archive calls fail before or after doing their work (a crash between the
 * steps); failed messages are redelivered, as SQS does, until they succeed. Set USAGE_WRITER_SEED to replay a run.
 */
const SEED = Number(process.env.USAGE_WRITER_SEED ?? 0x5eed_2025) >>> 0;
const MAX_RECEIVE_COUNT = 25; // far above what ~19% failure per delivery needs; reaching it would mean dead-lettering
const CONCURRENT_BATCHES = 3; // several writer invocations at once, as Lambda runs them
const PROJECTS = ['acme', 'globex', 'initech', 'umbrella', 'hooli', 'stark', 'wayne'];
const DAY_MS = 86_400_000;

/** mulberry32: a tiny deterministic PRNG, uniform in [0, 1). */
function mulberry32(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

function fnv1a(text: string): number {
  let hash = 0x811c9dc5;
  for (let index = 0; index < text.length; index += 1) hash = Math.imul(hash ^ text.charCodeAt(index), 0x01000193);
  return hash >>> 0;
}

function shuffle<T>(items: T[], random: () => number): T[] {
  const copy = [...items];
  for (let index = copy.length - 1; index > 0; index -= 1) {
    const other = Math.floor(random() * (index + 1));
    [copy[index], copy[other]] = [copy[other] as T, copy[index] as T];
  }
  return copy;
}

/** Records over seven projects and a week; ~5% reuse the request id of an earlier record of their project. */
function workload(count: number, random: () => number) {
  const records: UsageRecord[] = [];
  const sharedRequestIds: [UsageRecord, UsageRecord][] = [];
  const reusable = new Map<string, UsageRecord[]>();
  for (let index = 0; index < count; index += 1) {
    const projectId = PROJECTS[Math.floor(random() * PROJECTS.length)] ?? 'acme';
    const costNanos = random() < 0.05 ? 0 : Math.floor(random() * 5_000_000_000);
    const candidates = reusable.get(projectId) ?? [];
    const earlier = random() < 0.05 && candidates.length > 0 ? candidates.splice(Math.floor(random() * candidates.length), 1)[0] : undefined;
    const createdAt = earlier
      ? new Date(Date.parse(earlier.createdAt) + 1_000 + Math.floor(random() * 600_000)).toISOString()
      : new Date(Date.parse('2025-03-01T00:00:00.000Z') + Math.floor(random() * 7 * DAY_MS)).toISOString();
    const record = sampleRecord({ projectId, costNanos, createdAt, ...(earlier ? { requestId: earlier.requestId } : {}) });
    records.push(record);
    if (earlier) sharedRequestIds.push([earlier, record]);
    else reusable.set(projectId, [...candidates, record]);
  }
  return { records, sharedRequestIds };
}

class InjectedFault extends Error {}

/** Decides each ledger or archive call's fault from the seed, the record and how many times that step ran for it. */
function faultPlan(seed: number) {
  const calls = new Map<string, number>();
  return (step: 'ledger' | 'archive', recordId: string): 'before' | 'after' | 'none' => {
    const key = `${step}:${recordId}`;
    const call = (calls.get(key) ?? 0) + 1;
    calls.set(key, call);
    const draw = mulberry32(seed ^ fnv1a(`${key}:${call}`))();
    return draw < 0.05 ? 'before' : draw < 0.1 ? 'after' : 'none';
  };
}

/** The ledger contract in memory: the put is conditional on the record's key, the spend added atomically with it. */
class InMemoryUsageLedger implements UsageLedger {
  readonly generations = new Map<string, UsageRecord>();
  readonly usage = new Map<string, { spentNanos: number; requestCount: number }>();

  async recordOnce(record: UsageRecord): Promise<boolean> {
    await new Promise((resolve) => setImmediate(resolve)); // a round trip: concurrent calls interleave here
    const key = `${generationKey(record.projectId, record.requestId)}\u0000${record.recordId}`;
    if (this.generations.has(key)) return false;
    this.generations.set(key, structuredClone(record));
    const usage = this.usage.get(record.projectId) ?? { spentNanos: 0, requestCount: 0 };
    this.usage.set(record.projectId, { spentNanos: usage.spentNanos + record.costNanos, requestCount: usage.requestCount + 1 });
    return true;
  }
}

interface Stored {
  generations: UsageRecord[];
  usage: Record<string, { spentNanos: number; requestCount: number }>;
}

/** Delivers every record 1–3 times through the writer with injected faults, redelivering failures until none is left. */
async function deliverWithFaults(records: UsageRecord[], ledger: UsageLedger, archive: UsageArchive, seed: number) {
  const random = mulberry32(seed);
  const fault = faultPlan(seed);
  const appliedTimes = new Map<string, number>();
  const unexpectedErrors: string[] = [];
  const flakyLedger: UsageLedger = {
    async recordOnce(record) {
      const when = fault('ledger', record.recordId);
      if (when === 'before') throw new InjectedFault('ledger down before the transaction');
      const applied = await ledger.recordOnce(record);
      if (applied) appliedTimes.set(record.recordId, (appliedTimes.get(record.recordId) ?? 0) + 1);
      if (when === 'after') throw new InjectedFault('writer crashed after the transaction');
      return applied;
    },
  };
  const flakyArchive: UsageArchive = {
    async put(record) {
      const when = fault('archive', record.recordId);
      if (when === 'before') throw new InjectedFault('archive down before the write');
      await archive.put(record);
      if (when === 'after') throw new InjectedFault('writer crashed after the write');
    },
  };
  const deps = {
    ledger: flakyLedger,
    archive: flakyArchive,
    reportFailure: (_message: unknown, reason: string, error?: unknown) => {
      if (!(error instanceof InjectedFault)) unexpectedErrors.push(`${reason}: ${String(error)}`);
    },
  };
  const messages = records.flatMap((record, index) =>
    Array.from({ length: 1 + Math.floor(random() * 3) }, (_, copy) => ({ messageId: `m-${index}-${copy}`, body: JSON.stringify(record) })),
  );
  let pending = shuffle(messages, random);
  let receiveCount = 0;
  while (pending.length > 0 && receiveCount < MAX_RECEIVE_COUNT) {
    receiveCount += 1;
    const batches: (typeof messages)[] = [];
    for (let start = 0; start < pending.length; ) {
      const size = 1 + Math.floor(random() * 10);
      batches.push(pending.slice(start, start + size));
      start += size;
    }
    const failedIds = new Set<string>();
    const count = receiveCount;
    const worker = async () => {
      for (let batch = batches.shift(); batch; batch = batches.shift()) {
        const { batchItemFailures } = await processUsageBatch({ Records: batch.map((message) => usageMessage(message.body, message.messageId, count)) }, deps);
        for (const failure of batchItemFailures) failedIds.add(failure.itemIdentifier);
      }
    };
    await Promise.all(Array.from({ length: CONCURRENT_BATCHES }, worker));
    pending = shuffle(pending.filter((message) => failedIds.has(message.messageId)), random);
  }
  return { deliveries: messages.length, undelivered: pending.length, receiveCount, appliedTimes, unexpectedErrors };
}

async function verify(records: UsageRecord[], stored: Stored, archiveDir: string, run: Awaited<ReturnType<typeof deliverWithFaults>>) {
  const seed = `seed ${SEED} (replay with USAGE_WRITER_SEED=${SEED})`;
  expect(run.undelivered, `${seed}: messages still failing after ${MAX_RECEIVE_COUNT} receives would be dead-lettered`).toBe(0);
  expect(run.unexpectedErrors.slice(0, 5), `${seed}: failures other than the injected ones`).toEqual([]);
  const expectedUsage: Stored['usage'] = {};
  for (const record of records) {
    const usage = (expectedUsage[record.projectId] ??= { spentNanos: 0, requestCount: 0 });
    usage.spentNanos += record.costNanos;
    usage.requestCount += 1;
  }
  expect(stored.usage, `${seed}: project spend and request counts`).toEqual(expectedUsage);
  const byId = new Map(records.map((record) => [record.recordId, record]));
  const problems: string[] = [];
  const seen = new Map<string, number>();
  for (const generation of stored.generations) {
    seen.set(generation.recordId, (seen.get(generation.recordId) ?? 0) + 1);
    if (JSON.stringify(generation) !== JSON.stringify(byId.get(generation.recordId))) problems.push(`generation ${generation.recordId} differs from its record`);
  }
  for (const record of records) {
    if (seen.get(record.recordId) !== 1) problems.push(`${record.recordId} is in the generation table ${seen.get(record.recordId) ?? 0} times`);
    if (run.appliedTimes.get(record.recordId) !== 1) problems.push(`the ledger applied ${record.recordId} ${run.appliedTimes.get(record.recordId) ?? 0} times`);
  }
  const files = (await readdir(archiveDir, { recursive: true, withFileTypes: true }))
    .filter((entry) => entry.isFile())
    .map((entry) => relative(archiveDir, join(entry.parentPath, entry.name)));
  expect(files.sort(), `${seed}: exactly one usage file per record, nothing else`).toEqual(records.map((record) => usageObjectKey(record)).sort());
  for (const record of records) {
    if ((await readFile(join(archiveDir, usageObjectKey(record)), 'utf8')) !== serializeUsageRow(record)) problems.push(`usage file of ${record.recordId} has other bytes`);
  }
  expect(problems.slice(0, 20), `${seed}: ${problems.length} records lost, duplicated or altered`).toEqual([]);
}

describe('the usage writer under redelivery and crashes (exactly once)', () => {
  const cleanup: (() => Promise<void>)[] = [];
  afterEach(async () => {
    for (const step of cleanup.splice(0).reverse()) await step();
  });

  async function tempDir(name: string): Promise<string> {
    const dir = await mkdtemp(join(tmpdir(), `exactly-once-${name}-`));
    cleanup.push(() => rm(dir, { recursive: true, force: true }));
    return dir;
  }

  it('counts 10,000 records delivered 1–3 times with faults exactly once (in-memory ledger, file archive)', async () => {
    const { records, sharedRequestIds } = workload(10_000, mulberry32(SEED));
    const ledger = new InMemoryUsageLedger();
    const archiveDir = await tempDir('memory');

    const run = await deliverWithFaults(records, ledger, new FileUsageArchive(archiveDir), SEED);

    expect(run.deliveries).toBeGreaterThan(15_000);
    expect(run.receiveCount, `seed ${SEED}: faults were injected, so some message needed redelivery`).toBeGreaterThan(1);
    expect(sharedRequestIds.length, `seed ${SEED}: the workload reuses request ids`).toBeGreaterThan(100);
    await verify(records, { generations: [...ledger.generations.values()], usage: Object.fromEntries(ledger.usage) }, archiveDir, run);
  }, 120_000);

  it('counts 1,000 records delivered 1–3 times with faults exactly once (DynamoUsageLedger on the embedded store)', async () => {
    const { records, sharedRequestIds } = workload(1_000, mulberry32(SEED ^ 0x1000));
    const dir = await tempDir('store');
    const names = { keys: 'once-keys', projects: 'once-projects', generations: 'once-generations' };
    const store = await startEmbeddedStore(join(dir, 'store'), names);
    const client = new DynamoDBClient({ endpoint: store.endpoint, region: 'local', credentials: { accessKeyId: 'local', secretAccessKey: 'local' } });
    cleanup.push(async () => {
      client.destroy();
      await store.close();
    });
    const documents = DynamoDBDocumentClient.from(client, { marshallOptions: { removeUndefinedValues: true } });
    const ledger = new DynamoUsageLedger(documents, { generations: names.generations, projects: names.projects, retentionDays: 30 });
    const archiveDir = join(dir, 'files');

    const run = await deliverWithFaults(records, ledger, new FileUsageArchive(archiveDir), SEED ^ 0x1000);

    const generations: UsageRecord[] = [];
    for await (const page of paginateScan({ client: documents }, { TableName: names.generations, ConsistentRead: true })) {
      for (const item of page.Items ?? []) generations.push(usageRecordSchema.parse(item));
    }
    const usage: Stored['usage'] = {};
    for (const projectId of new Set(records.map((record) => record.projectId))) {
      const { Item } = await documents.send(new GetCommand({ TableName: names.projects, Key: { projectId, itemKey: 'usage' }, ConsistentRead: true }));
      usage[projectId] = { spentNanos: Number(Item?.spentNanos), requestCount: Number(Item?.requestCount) };
    }
    await verify(records, { generations, usage }, archiveDir, run);
    expect(sharedRequestIds.length, `seed ${SEED}: the workload reuses request ids`).toBeGreaterThan(0);
    for (const [earlier, later] of sharedRequestIds) {
      expect(await ledger.findGeneration(earlier.projectId, earlier.requestId), `seed ${SEED}: the latest of a reused request id`).toEqual(later);
    }
  }, 120_000);
});
