import type { SQSBatchResponse, SQSEvent, SQSRecord } from 'aws-lambda';
import type { UsageArchive, UsageLedger } from '../core/ports.ts';
import { usageRecordSchema, type UsageRecord } from '../core/usage-record.ts';
import { usageBatchFiles } from './usage-batch-files.ts';

export interface UsageWriterDeps {
  ledger: UsageLedger;
  archive: UsageArchive;
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
 * 1. the ledger applies each record at most once (its conditional transaction stores the record and settles
 *    its cost), concurrently;
 * 2. one usage file per day of the batch takes every record the ledger now holds: those applied in this
 *    delivery and those it had applied before, since the delivery that applied them may have crashed
 *    before its file was written.
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
  const recorded = await Promise.all(
    delivered.map(async (entry) => {
      try {
        await deps.ledger.recordOnce(entry.record);
        return [entry];
      } catch (error) {
        fail(entry.message, 'applying the record failed', error);
        return [];
      }
    }),
  ).then((lists) => lists.flat());
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
  return { batchItemFailures: event.Records.filter((message) => failed.has(message.messageId)).map((message) => ({ itemIdentifier: message.messageId })) };
}
