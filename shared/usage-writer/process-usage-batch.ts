import type { SQSBatchResponse, SQSEvent, SQSRecord } from 'aws-lambda';
import type { UsageArchive, UsageLedger } from '../core/ports.ts';
import { usageRecordSchema, type UsageRecord } from '../core/usage-record.ts';

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

/**
 * Applies one usage record exactly once: the ledger's conditional transaction stores it and settles its
 * cost at most once; the usage file is written every time (same key, same bytes), so a crash between
 * the two steps is repaired by the redelivery.
 */
export async function applyUsageRecord(record: UsageRecord, deps: Pick<UsageWriterDeps, 'ledger' | 'archive'>): Promise<void> {
  await deps.ledger.recordOnce(record);
  await deps.archive.put(record);
}

/**
 * The writer Lambda's work on one SQS batch. Records are independent, so they are applied concurrently;
 * each failure is reported as a partial batch failure, so only that message is retried (and, after the
 * queue's maxReceiveCount, moved to the dead-letter queue).
 */
export async function processUsageBatch(event: SQSEvent, deps: UsageWriterDeps): Promise<SQSBatchResponse> {
  const failures = await Promise.all(
    event.Records.map(async (message) => {
      const parsed = parseMessage(message);
      if ('problem' in parsed) {
        deps.reportFailure(message, parsed.problem);
        return message.messageId;
      }
      try {
        await applyUsageRecord(parsed.record, deps);
        return undefined;
      } catch (error) {
        deps.reportFailure(message, 'applying the record failed', error);
        return message.messageId;
      }
    }),
  );
  return {
    batchItemFailures: failures.filter((id): id is string => id !== undefined).map((itemIdentifier) => ({ itemIdentifier })),
  };
}
