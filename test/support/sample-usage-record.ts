import { createHash } from 'node:crypto';
import type { SQSRecord } from 'aws-lambda';
import { FileUsageArchive } from '../../shared/adapters/local/file-usage-archive.ts';
import { type UsageRecord, usageRecordSchema } from '../../shared/core/usage-record.ts';
import { usageBatchFiles, type UsageFile } from '../../shared/usage-writer/usage-batch-files.ts';
import { encodeUsageRows } from '../../shared/usage-writer/usage-parquet.ts';
import { toUsageRow, usageColumns } from '../../shared/usage-writer/usage-row.ts';
import { temporaryDirectory } from './temporary-directories.ts';

let sequence = 0;

/** A valid UsageRecord (checked against the schema) with a fresh recordId; overrides win. */
export function sampleRecord(overrides: Partial<UsageRecord> = {}): UsageRecord {
  sequence += 1;
  const suffix = String(sequence).padStart(16, '0');
  return usageRecordSchema.parse({
    version: 1,
    recordId: `rec-${suffix}`,
    requestId: `req-${suffix}`,
    projectId: 'acme',
    keyId: 'key-1',
    endpoint: '/v1/chat/completions',
    model: 'openai/gpt-4o-mini',
    provider: 'openai',
    streamed: false,
    status: 'completed',
    httpStatus: 200,
    finishReason: 'stop',
    promptTokens: 100,
    completionTokens: 20,
    cachedTokens: 0,
    reasoningTokens: 0,
    estimated: false,
    costNanos: 27_000,
    fallbackAttempts: 0,
    latencyMs: 350,
    createdAt: '2025-03-01T10:00:00.000Z',
    attribution: {},
    ...overrides,
  });
}

/** Writes the records as the usage writer writes one delivered batch: one Parquet file per day under `<dataDir>/usage/dt=…/`. */
export async function writeUsageFiles(dataDir: string, records: UsageRecord[]): Promise<string[]> {
  const archive = new FileUsageArchive(dataDir);
  const files = usageBatchFiles(records);
  for (const file of files) await archive.write(file.key, file.body);
  return files.map((file) => file.key);
}

/** The usage files of one batch as a version before the `end_user` column wrote them: without it and the columns after it. */
export function usageFilesBeforeEndUser(records: UsageRecord[]): UsageFile[] {
  const earlierColumns = usageColumns.slice(0, usageColumns.findIndex((column) => column.name === 'end_user'));
  return usageBatchFiles(records).map((file) => {
    const rows = records.filter((record) => file.recordIds.includes(record.recordId)).map(toUsageRow);
    return { ...file, body: encodeUsageRows(rows, earlierColumns) };
  });
}

/** Writes usageFilesBeforeEndUser's files under `<dataDir>/usage/dt=…/`. */
export async function writeUsageFilesBeforeEndUser(dataDir: string, records: UsageRecord[]): Promise<void> {
  const archive = new FileUsageArchive(dataDir);
  for (const file of usageFilesBeforeEndUser(records)) await archive.write(file.key, file.body);
}

export function makeTempDataDir(): Promise<string> {
  return Promise.resolve(temporaryDirectory('gateway-usage-'));
}

/** An SQS message as the event source mapping hands it to the usage writer, with any body. */
export function usageMessage(body: string, messageId: string, receiveCount = 1): SQSRecord {
  return {
    messageId,
    receiptHandle: `receipt-${messageId}`,
    body,
    attributes: {
      ApproximateReceiveCount: String(receiveCount),
      SentTimestamp: '1740823200000',
      SenderId: 'test',
      ApproximateFirstReceiveTimestamp: '1740823200000',
    },
    messageAttributes: {},
    md5OfBody: createHash('md5').update(body).digest('hex'),
    eventSource: 'aws:sqs',
    eventSourceARN: 'arn:aws:sqs:us-east-1:123456789012:gateway-usage',
    awsRegion: 'us-east-1',
  };
}
