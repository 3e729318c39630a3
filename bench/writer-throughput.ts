import { createHash } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { SQSEvent, SQSRecord } from 'aws-lambda';
import { DynamoUsageLedger } from '../shared/adapters/aws/dynamo-usage-ledger.ts';
import { FileUsageArchive } from '../shared/adapters/local/file-usage-archive.ts';
import { usageRecordSchema, type UsageRecord } from '../shared/core/usage-record.ts';
import { startEmbeddedStore } from '../tools/local-host/embedded-store.ts';
import { processUsageBatch, type UsageWriterDeps } from '../shared/usage-writer/process-usage-batch.ts';
import { embeddedStoreDocuments } from '../shared/wiring/dynamo-documents.ts';

/**
 * Usage records per second through the writer (processUsageBatch with the real DynamoUsageLedger on the
 * embedded store, and the usage files), a process of its own: `node bench/writer-throughput.ts
 * '<json spec>'` prints one JSON line. Batches are SQS-shaped, as the event source mapping delivers them.
 */
interface Spec {
  records: number;
  batchSize: number;
  /** Batches in flight at once: 1 is one writer working batch after batch (the local queue's way). */
  parallel: number[];
}

const spec = JSON.parse(process.argv[2] ?? '{}') as Spec;
const TABLES = { keys: 'bench-keys', projects: 'bench-projects', generations: 'bench-generations', counters: 'bench-counters' };
let sequence = 0;

function record(): UsageRecord {
  sequence += 1;
  const suffix = String(sequence).padStart(16, '0');
  return usageRecordSchema.parse({
    version: 1,
    recordId: `rec-${suffix}`,
    requestId: `req-${suffix}`,
    projectId: `bench-${sequence % 4}`,
    keyId: 'key-1',
    endpoint: 'chat.completions',
    model: 'openai/gpt-4o-mini',
    provider: 'openai',
    upstreamId: 'chatcmpl-bench',
    streamed: false,
    status: 'completed',
    httpStatus: 200,
    finishReason: 'stop',
    promptTokens: 12,
    completionTokens: 7,
    cachedTokens: 0,
    reasoningTokens: 0,
    estimated: false,
    costNanos: 6_000,
    fallbackAttempts: 0,
    latencyMs: 3,
    createdAt: new Date().toISOString(),
    attribution: {},
  });
}

function message(body: string, index: number): SQSRecord {
  return {
    messageId: `msg-${sequence}-${index}`,
    receiptHandle: `receipt-${index}`,
    body,
    attributes: { ApproximateReceiveCount: '1', SentTimestamp: String(Date.now()), SenderId: 'bench', ApproximateFirstReceiveTimestamp: String(Date.now()) },
    messageAttributes: {},
    md5OfBody: createHash('md5').update(body).digest('hex'),
    eventSource: 'aws:sqs',
    eventSourceARN: 'arn:aws:sqs:local:000000000000:gateway-usage',
    awsRegion: 'local',
  };
}

function batches(count: number, size: number): SQSEvent[] {
  const events: SQSEvent[] = [];
  for (let start = 0; start < count; start += size) {
    const length = Math.min(size, count - start);
    events.push({ Records: Array.from({ length }, (_, index) => message(JSON.stringify(record()), start + index)) });
  }
  return events;
}

async function run(deps: UsageWriterDeps, parallel: number): Promise<{ parallel: number; records: number; seconds: number; perSecond: number; failures: number }> {
  const queue = batches(spec.records, spec.batchSize);
  let failures = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: parallel }, async () => {
      for (let event = queue.shift(); event; event = queue.shift()) failures += (await processUsageBatch(event, deps)).batchItemFailures.length;
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  return { parallel, records: spec.records, seconds, perSecond: spec.records / seconds, failures };
}

const dataDir = await mkdtemp(join(tmpdir(), 'gateway-bench-writer-'));
const store = await startEmbeddedStore(join(dataDir, 'dynamodb'), TABLES);
const documents = embeddedStoreDocuments(store.endpoint);
const ledger = new DynamoUsageLedger(documents, { generations: TABLES.generations, projects: TABLES.projects, retentionDays: 90 });
const archive = new FileUsageArchive(dataDir);
let reported = 0;
const deps: UsageWriterDeps = { ledger, archive, reportFailure: () => (reported += 1) };
try {
  await run(deps, 1); // warm-up: JIT, the tables' first writes
  const results = [];
  for (const parallel of spec.parallel) results.push(await run(deps, parallel));
  // The two halves of a batch's work, apart: the ledger's transactions and the usage file.
  const discardFiles = { write: async () => undefined, list: async () => [], read: async () => new Uint8Array(), remove: async () => undefined };
  const ledgerOnly = await run({ ...deps, archive: discardFiles }, 1);
  const archiveOnly = await run({ ...deps, ledger: { recordAll: async (records) => records.map(() => 'applied' as const) } }, 1);
  console.log(JSON.stringify({ batchSize: spec.batchSize, results, ledgerOnly, archiveOnly, reportedFailures: reported }));
} finally {
  await store.close();
  await rm(dataDir, { recursive: true, force: true });
}
