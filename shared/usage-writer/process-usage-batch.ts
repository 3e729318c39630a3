import type { SQSBatchResponse, SQSEvent, SQSRecord } from 'aws-lambda';
import type { KeyLastUseRecorder, UsageArchive, UsageLedger } from '../core/ports.ts';
import { usageRecordSchema, type UsageRecord } from '../core/usage-record.ts';
import { usageBatchFiles } from './usage-batch-files.ts';

export interface UsageWriterDeps {
  ledger: UsageLedger;
  archive: UsageArchive;
  /** Where each key's last use is stamped: once per key and batch, from the newest of its records. */
  keyLastUse?: KeyLastUseRecorder;
  /** Told about each message that failed, with the reason; poison messages end in the DLQ after retries. */
  reportFailure(message: SQSRecord, reason: string, error?: unknown): void;
}

/** Parses a queue message into a usage record, or explains why it cannot be one. */
function parseMessage(message: SQSRecord): { record: UsageRecord } | { problem: string } {
  let json: unknown;
  try {
    json = JSON.parse(message.body);
  } catch {
    return { problem: 'the message body is not JSON' };
  }
  const parsed = usageRecordSchema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    return { problem: `not a usage record: ${issue?.path.join('.') || 'body'}: ${issue?.message ?? 'invalid'}` };
  }
  return { record: parsed.data };
}

interface Delivered {
  message: SQSRecord;
  record: UsageRecord;
}

/**
 * The writer Lambda's work on one SQS batch, in two steps:
 * 1. the ledger applies each record at most once (its conditional transactions store the records and settle
 *    their costs), the whole batch at once;
 * 2. one usage file per day of the batch takes every record the ledger now holds: those applied in this
 *    delivery and those it had applied before, since the delivery that applied them may have crashed
 *    before its file was written;
 * 3. each key's last use is stamped once per batch, from its records written in steps 1 and 2.
 * A record can therefore be in the usage files more than once (a batch redelivered after its file was
 * written), always within its day; the named queries and the compaction count each record_id once
 * (docs/decisions/usage-files-and-queries.md). Each failure is a partial batch failure, so only those
 * messages are retried (and, after the queue's maxReceiveCount, moved to the dead-letter queue).
 */
export async function processUsageBatch(event: SQSEvent, deps: UsageWriterDeps): Promise<SQSBatchResponse> {
  const failed = new Set<string>();
  const fail = (message: SQSRecord, reason: string, error?: unknown) => {
    deps.reportFailure(message, reason, error);
    failed.add(message.messageId);
  };
  const delivered: Delivered[] = [];
  for (const message of event.Records) {
    const parsed = parseMessage(message);
    if ('problem' in parsed) fail(message, parsed.problem);
    else delivered.push({ message, record: parsed.record });
  }
  const outcomes = await deps.ledger.recordAll(delivered.map((entry) => entry.record)).catch((error: unknown) => delivered.map(() => ({ failed: error })));
  const recorded = delivered.filter((entry, index) => {
    const outcome = outcomes[index] ?? { failed: new Error('the ledger gave no outcome for the record') };
    if (typeof outcome === 'object') fail(entry.message, 'applying the record failed', outcome.failed);
    return typeof outcome !== 'object';
  });
  await Promise.all(
    usageBatchFiles(recorded.map((entry) => entry.record)).map(async (file) => {
      try {
        await deps.archive.write(file.key, file.body);
      } catch (error) {
        const inFile = new Set(file.recordIds);
        for (const entry of recorded) if (inFile.has(entry.record.recordId)) fail(entry.message, 'writing the usage file failed', error);
      }
    }),
  );
  if (deps.keyLastUse) {
    const stamped = recorded.filter((entry) => !failed.has(entry.message.messageId));
    for (const messageId of await stampLastUse(stamped, deps.keyLastUse, deps.reportFailure)) failed.add(messageId);
  }
  return { batchItemFailures: event.Records.filter((message) => failed.has(message.messageId)).map((message) => ({ itemIdentifier: message.messageId })) };
}

/**
 * "Last used" off the request path: one stamp per key per batch. A failed stamp fails that key's messages,
 * so their redelivery (which changes no total: the ledger applies each record once) stamps it again.
 */
async function stampLastUse(
  applied: Delivered[],
  recorder: KeyLastUseRecorder,
  reportFailure: UsageWriterDeps['reportFailure'],
): Promise<string[]> {
  const byKey = new Map<string, { projectId: string; keyId: string; usedAt: string; messages: SQSRecord[] }>();
  for (const { message, record } of applied) {
    const id = JSON.stringify([record.projectId, record.keyId]);
    const entry = byKey.get(id) ?? { projectId: record.projectId, keyId: record.keyId, usedAt: record.createdAt, messages: [] };
    if (record.createdAt > entry.usedAt) entry.usedAt = record.createdAt;
    entry.messages.push(message);
    byKey.set(id, entry);
  }
  const failed = await Promise.all(
    [...byKey.values()].map(async (entry) => {
      try {
        await recorder.recordLastUse(entry.projectId, entry.keyId, entry.usedAt);
        return [];
      } catch (error) {
        for (const message of entry.messages) reportFailure(message, "stamping the key's last use failed", error);
        return entry.messages.map((message) => message.messageId);
      }
    }),
  );
  return failed.flat();
}
