import type { SQSBatchResponse, SQSEvent, SQSRecord } from 'aws-lambda';
import type { KeyLastUseRecorder, UsageArchive, UsageLedger } from '../core/ports.ts';
import { usageRecordSchema, type UsageRecord } from '../core/usage-record.ts';

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
  const applied: Array<{ message: SQSRecord; record: UsageRecord }> = [];
  const failures = await Promise.all(
    event.Records.map(async (message) => {
      const parsed = parseMessage(message);
      if ('problem' in parsed) {
        deps.reportFailure(message, parsed.problem);
        return message.messageId;
      }
      try {
        await applyUsageRecord(parsed.record, deps);
        applied.push({ message, record: parsed.record });
        return undefined;
      } catch (error) {
        deps.reportFailure(message, 'applying the record failed', error);
        return message.messageId;
      }
    }),
  );
  const stampFailures = deps.keyLastUse ? await stampLastUse(applied, deps.keyLastUse, deps.reportFailure) : [];
  return {
    batchItemFailures: [...failures.filter((id): id is string => id !== undefined), ...stampFailures].map((itemIdentifier) => ({ itemIdentifier })),
  };
}

/**
 * "Last used" off the request path: one stamp per key per batch. A failed stamp fails that key's messages,
 * so their redelivery (which changes no total: the ledger applies each record once) stamps it again.
 */
async function stampLastUse(
  applied: Array<{ message: SQSRecord; record: UsageRecord }>,
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
