import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { DynamoUsageLedger } from '../../shared/adapters/aws/dynamo-usage-ledger.ts';
import { FileUsageArchive } from '../../shared/adapters/local/file-usage-archive.ts';
import type { UsageArchive, UsageLedger } from '../../shared/core/ports.ts';
import { usageRecordSchema, type UsageRecord } from '../../shared/core/usage-record.ts';
import { namedUsageQueries, type NamedQueryDays } from '../../shared/usage-writer/named-usage-queries.ts';
import { processUsageBatch } from '../../shared/usage-writer/process-usage-batch.ts';
import { usageBatchFiles } from '../../shared/usage-writer/usage-batch-files.ts';
import { usageDayPrefix } from '../../shared/usage-writer/usage-file-keys.ts';
import { readUsageRows } from '../../shared/usage-writer/usage-parquet-reader.ts';
import { toUsageRow, usageDayOf } from '../../shared/usage-writer/usage-row.ts';
import { openLocalUsage, type UsageQueryRow } from '../../tools/cli/local-usage-query.ts';
import { startEmbeddedStore } from '../../tools/local-host/embedded-store.ts';
import { compactWithFaults } from '../support/compact-with-faults.ts';
import { InMemoryUsageLedger } from '../support/memory-usage-ledger.ts';
import { usageMessage } from '../support/sample-usage-record.ts';
import { faultPlan, InjectedFault, mulberry32, shuffle, workload } from '../support/usage-workload.ts';
import { embeddedStoreDocuments } from '../../shared/wiring/dynamo-documents.ts';

/**
 * The acceptance test of the usage writer: every record delivered 1–3 times, shuffled, in batches of up to
 * ten, while ~10% of ledger calls and of usage-file writes fail before or after doing their work (a crash
 * mid-batch); failed messages are redelivered, as SQS does, until they succeed. Then the daily compaction
 * runs with crashes of its own until it gets through. At every stage the ledger must hold each record once
 * and every named query, run through the local DuckDB path, must return exactly what it returns over the
 * records written once. Set USAGE_WRITER_SEED to replay a run.
 */
const SEED = Number(process.env.USAGE_WRITER_SEED ?? 0x5eed_2025) >>> 0;
const MAX_RECEIVE_COUNT = 25; // far above what ~19% failure per delivery needs; reaching it would mean dead-lettering
const CONCURRENT_BATCHES = 3; // several writer invocations at once, as Lambda runs them
const ALL_OF_MARCH: NamedQueryDays = ['2025-03-01', '2025-03-31'];

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
    async recordAll(records) {
      const when = fault('ledger', records.map((record) => record.recordId).join(','));
      if (when === 'before') throw new InjectedFault('ledger down before the transaction');
      const outcomes = await ledger.recordAll(records);
      records.forEach((record, index) => {
        if (outcomes[index] === 'applied') appliedTimes.set(record.recordId, (appliedTimes.get(record.recordId) ?? 0) + 1);
      });
      if (when === 'after') throw new InjectedFault('writer crashed after the transaction');
      return outcomes;
    },
  };
  const flakyArchive: UsageArchive = {
    ...archive,
    async write(key, body) {
      const when = fault('file', key);
      if (when === 'before') throw new InjectedFault('S3 down before the usage file was written');
      await archive.write(key, body);
      if (when === 'after') throw new InjectedFault('writer crashed after writing the usage file');
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
    Array.from({ length: 1 + Math.floor(random() * 3) }, (_, copy) => ({ messageId: `m-${index}-${copy}`, body: JSON.stringify(record), day: usageDayOf(record) })),
  );
  /** At most one usage file per delivered batch and day its records fall on. */
  let fileBound = 0;
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
    for (const batch of batches) fileBound += new Set(batch.map((message) => message.day)).size;
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
  return { deliveries: messages.length, undelivered: pending.length, receiveCount, appliedTimes, unexpectedErrors, fileBound };
}

/** Every named query's rows over the usage files under `dataDir`, through the local DuckDB path. */
async function namedQueryResults(dataDir: string): Promise<Record<string, UsageQueryRow[]>> {
  const usage = await openLocalUsage(dataDir);
  try {
    const results: Record<string, UsageQueryRow[]> = {};
    for (const query of namedUsageQueries) results[query.name] = await usage.query(query.sql, ALL_OF_MARCH);
    return results;
  } finally {
    usage.close();
  }
}

/** The usage files' rows, by day. */
async function usageFiles(dataDir: string) {
  const archive = new FileUsageArchive(dataDir);
  const days = (await readdir(join(dataDir, 'usage'))).map((directory) => directory.replace(/^dt=/, '')).sort();
  const files = new Map<string, Awaited<ReturnType<typeof readUsageRows>>>();
  for (const day of days) for (const key of await archive.list(usageDayPrefix(day))) files.set(key, await readUsageRows(key, await archive.read(key)));
  return { days, files, rows: [...files.values()].flat() };
}

/** What the named queries return over the records written once, checked against totals computed here. */
async function expectedQueryResults(records: UsageRecord[], dataDir: string) {
  const archive = new FileUsageArchive(dataDir);
  for (const file of usageBatchFiles(records)) await archive.write(file.key, file.body);
  const results = await namedQueryResults(dataDir);
  const perDayAndProject = new Map<string, { requests: number; cost_nanos: number }>();
  for (const record of records) {
    const key = `${usageDayOf(record)} ${record.projectId}`;
    const totals = perDayAndProject.get(key) ?? { requests: 0, cost_nanos: 0 };
    perDayAndProject.set(key, { requests: totals.requests + 1, cost_nanos: totals.cost_nanos + record.costNanos });
  }
  const computed = [...perDayAndProject].sort(([a], [b]) => a.localeCompare(b)).map(([key, totals]) => ({ day_and_project: key, ...totals }));
  const queried = (results['cost-by-project-by-day'] ?? []).map((row) => ({ day_and_project: `${row.dt} ${row.project_id}`, requests: row.requests, cost_nanos: row.cost_nanos }));
  expect(queried, 'cost-by-project-by-day over the records written once').toEqual(computed);
  return results;
}

async function verifyLedger(records: UsageRecord[], stored: Stored, run: Awaited<ReturnType<typeof deliverWithFaults>>) {
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
  expect(problems.slice(0, 20), `${seed}: ${problems.length} records lost, duplicated or altered in the ledger`).toEqual([]);
}

/**
 * The usage files before and after the compaction: every record in them, unaltered, nothing else; copies
 * before (so the queries' deduplication is what keeps them exact); one file per day holding each record
 * once at the end, and the same answer from every named query. With `queryEveryStage`, the named queries
 * also run over the files as the writer left them and after each crash of the compaction (DuckDB opens
 * each file for each query, ~1 ms a file: the 10,000-record run's ~12,000 files would take minutes, which
 * is what the compaction is for).
 */
async function verifyUsageFiles(records: UsageRecord[], dataDir: string, referenceDir: string, options: { fileBound: number; queryEveryStage: boolean; compactionFaultRate: number }) {
  const seed = `seed ${SEED} (replay with USAGE_WRITER_SEED=${SEED})`;
  const expected = await expectedQueryResults(records, referenceDir);
  const rowsById = new Map(records.map((record) => [record.recordId, toUsageRow(record)]));
  const written = await usageFiles(dataDir);
  const altered = written.rows.filter((row) => JSON.stringify(row) !== JSON.stringify(rowsById.get(String(row.record_id))));
  expect(altered.slice(0, 5), `${seed}: rows that are no record's`).toEqual([]);
  expect(new Set(written.rows.map((row) => row.record_id)).size, `${seed}: every record is in the usage files`).toBe(records.length);
  expect(written.rows.length, `${seed}: redelivery left copies in the usage files`).toBeGreaterThan(records.length);
  expect(written.files.size, `${seed}: at most one file per delivered batch and day`).toBeLessThanOrEqual(options.fileBound);
  if (options.queryEveryStage) expect(await namedQueryResults(dataDir), `${seed}: named queries over the files with copies`).toEqual(expected);

  let checkedAfterCrash = 0;
  const { crashes } = await compactWithFaults(new FileUsageArchive(dataDir), written.days, SEED, options.compactionFaultRate, async () => {
    if (!options.queryEveryStage) return;
    expect(await namedQueryResults(dataDir), `${seed}: named queries after a crash of the compaction`).toEqual(expected);
    checkedAfterCrash += 1;
  });
  expect(crashes, `${seed}: the compaction crashed at least once`).toBeGreaterThan(0);
  if (options.queryEveryStage) expect(checkedAfterCrash).toBe(crashes);

  const compacted = await usageFiles(dataDir);
  expect(compacted.files.size, `${seed}: one compacted file per day`).toBe(written.days.length);
  const filesPerDay = (keys: Iterable<string>) => Object.groupBy([...keys], (key) => key.split('/')[1] ?? '');
  const severalBefore = Object.entries(filesPerDay(written.files.keys())).filter(([, keys]) => (keys?.length ?? 0) > 1).map(([day]) => day);
  const compactedAfter = Object.entries(filesPerDay(compacted.files.keys())).filter(([, keys]) => keys?.some((key) => /\/compacted-[0-9a-f]{32}\.parquet$/.test(key))).map(([day]) => day);
  expect(compactedAfter, `${seed}: every day that had several files has its compacted file`).toEqual(severalBefore);
  expect(compacted.rows.map((row) => row.record_id).sort(), `${seed}: each record once after the compaction`).toEqual(records.map((record) => record.recordId).sort());
  expect(await namedQueryResults(dataDir), `${seed}: named queries after the compaction`).toEqual(expected);
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

  it('counts 10,000 records delivered 1–3 times with faults exactly once, in the ledger and in every named query (in-memory ledger, file archive)', async () => {
    const { records, sharedRequestIds } = workload(10_000, mulberry32(SEED));
    const ledger = new InMemoryUsageLedger();
    const archiveDir = await tempDir('memory');

    const run = await deliverWithFaults(records, ledger, new FileUsageArchive(archiveDir), SEED);

    expect(run.deliveries).toBeGreaterThan(15_000);
    expect(run.receiveCount, `seed ${SEED}: faults were injected, so some message needed redelivery`).toBeGreaterThan(1);
    expect(sharedRequestIds.length, `seed ${SEED}: the workload reuses request ids`).toBeGreaterThan(100);
    await verifyLedger(records, { generations: [...ledger.generations.values()], usage: Object.fromEntries(ledger.usage) }, run);
    await verifyUsageFiles(records, archiveDir, await tempDir('memory-reference'), { fileBound: run.fileBound, queryEveryStage: false, compactionFaultRate: 0.1 });
  }, 180_000);

  it('counts 1,000 records delivered 1–3 times with faults exactly once, in the ledger and in every named query at every stage (DynamoUsageLedger on the embedded store)', async () => {
    const { records, sharedRequestIds } = workload(1_000, mulberry32(SEED ^ 0x1000), 2);
    const dir = await tempDir('store');
    const names = { keys: 'once-keys', projects: 'once-projects', generations: 'once-generations' };
    const store = await startEmbeddedStore(join(dir, 'store'), names);
    cleanup.push(() => store.close());
    const documents = embeddedStoreDocuments(store.endpoint);
    const ledger = new DynamoUsageLedger(documents, { generations: names.generations, projects: names.projects, retentionDays: 30 });
    const archiveDir = join(dir, 'files');

    const run = await deliverWithFaults(records, ledger, new FileUsageArchive(archiveDir), SEED ^ 0x1000);

    const generations: UsageRecord[] = [];
    let startKey: Record<string, unknown> | undefined;
    do {
      const page = await documents.scan({ TableName: names.generations, ConsistentRead: true, ...(startKey ? { ExclusiveStartKey: startKey } : {}) });
      for (const item of page.Items) generations.push(usageRecordSchema.parse(item));
      startKey = page.LastEvaluatedKey;
    } while (startKey);
    const usage: Stored['usage'] = {};
    for (const projectId of new Set(records.map((record) => record.projectId))) {
      const { Item } = await documents.get({ TableName: names.projects, Key: { projectId, itemKey: 'usage' }, ConsistentRead: true });
      usage[projectId] = { spentNanos: Number(Item?.spentNanos), requestCount: Number(Item?.requestCount) };
    }
    await verifyLedger(records, { generations, usage }, run);
    await verifyUsageFiles(records, archiveDir, join(dir, 'reference'), { fileBound: run.fileBound, queryEveryStage: true, compactionFaultRate: 0.3 });
    expect(sharedRequestIds.length, `seed ${SEED}: the workload reuses request ids`).toBeGreaterThan(0);
    for (const [earlier, later] of sharedRequestIds) {
      expect(await ledger.findGeneration(earlier.projectId, earlier.requestId), `seed ${SEED}: the latest of a reused request id`).toEqual(later);
    }
  }, 180_000);
});
