import { DeleteObjectCommand, GetObjectCommand, paginateListObjectsV2, PutObjectCommand, type S3Client } from '@aws-sdk/client-s3';
import { usageRecordSchema, type UsageRecord } from '../../core/usage-record.ts';
import type { SpilledUsage } from '../../usage-writer/replay-spilled-usage.ts';

/** Key prefix, in the usage bucket, of the records the queue refused. */
export const USAGE_SPILL_PREFIX = 'spill/';

/**
 * Where a route group puts a usage record SQS refused (`spill/<recordId>.json` in the usage bucket), and
 * where `npm run replay` finds it again. One object per record: a record spilled twice is one object.
 */
export class S3UsageSpill implements SpilledUsage {
  private readonly client: S3Client;
  private readonly bucket: string;

  constructor(client: S3Client, bucket: string) {
    this.client = client;
    this.bucket = bucket;
  }

  async put(record: UsageRecord): Promise<void> {
    await this.client.send(
      new PutObjectCommand({ Bucket: this.bucket, Key: `${USAGE_SPILL_PREFIX}${record.recordId}.json`, Body: JSON.stringify(record), ContentType: 'application/json' }),
    );
  }

  async *keys(): AsyncIterable<string> {
    for await (const page of paginateListObjectsV2({ client: this.client }, { Bucket: this.bucket, Prefix: USAGE_SPILL_PREFIX })) {
      for (const object of page.Contents ?? []) if (object.Key) yield object.Key;
    }
  }

  async read(key: string): Promise<UsageRecord> {
    const { Body } = await this.client.send(new GetObjectCommand({ Bucket: this.bucket, Key: key }));
    return usageRecordSchema.parse(JSON.parse((await Body?.transformToString('utf8')) ?? ''));
  }

  async remove(key: string): Promise<void> {
    await this.client.send(new DeleteObjectCommand({ Bucket: this.bucket, Key: key }));
  }
}
