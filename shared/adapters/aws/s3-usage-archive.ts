import { PutObjectCommand, type S3Client } from '@aws-sdk/client-s3';
import type { UsageArchive } from '../../core/ports.ts';
import type { UsageRecord } from '../../core/usage-record.ts';
import { serializeUsageRow, usageObjectKey } from '../../usage-writer/usage-row.ts';

/** The usage files in S3 that the Glue table describes: one object per record, date-partitioned. */
export class S3UsageArchive implements UsageArchive {
  constructor(
    private readonly client: S3Client,
    private readonly bucket: string,
  ) {}

  async put(record: UsageRecord): Promise<void> {
    await this.client.send(
      new PutObjectCommand({ Bucket: this.bucket, Key: usageObjectKey(record), Body: serializeUsageRow(record), ContentType: 'application/x-ndjson' }),
    );
  }
}
