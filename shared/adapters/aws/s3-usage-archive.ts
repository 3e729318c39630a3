import { DeleteObjectsCommand, GetObjectCommand, paginateListObjectsV2, PutObjectCommand, type S3Client } from '@aws-sdk/client-s3';
import type { UsageArchive } from '../../core/ports.ts';

/** S3's limit of keys per DeleteObjects request. */
const DELETE_BATCH = 1000;

export class UsageArchiveError extends Error {
  override readonly name = 'UsageArchiveError';
}

/** The usage files in S3 that the Glue table describes (date-partitioned Parquet objects). */
export class S3UsageArchive implements UsageArchive {
  private readonly client: S3Client;
  private readonly bucket: string;

  constructor(client: S3Client, bucket: string) {
    this.client = client;
    this.bucket = bucket;
  }

  async write(key: string, body: Uint8Array): Promise<void> {
    await this.client.send(new PutObjectCommand({ Bucket: this.bucket, Key: key, Body: body, ContentType: 'application/vnd.apache.parquet' }));
  }

  async list(prefix: string): Promise<string[]> {
    const keys: string[] = [];
    for await (const page of paginateListObjectsV2({ client: this.client }, { Bucket: this.bucket, Prefix: prefix })) {
      for (const object of page.Contents ?? []) if (object.Key !== undefined) keys.push(object.Key);
    }
    return keys;
  }

  async read(key: string): Promise<Uint8Array> {
    const { Body } = await this.client.send(new GetObjectCommand({ Bucket: this.bucket, Key: key }));
    if (!Body) throw new UsageArchiveError(`s3://${this.bucket}/${key} has no body`);
    return Body.transformToByteArray();
  }

  async remove(keys: readonly string[]): Promise<void> {
    for (let start = 0; start < keys.length; start += DELETE_BATCH) {
      const Objects = keys.slice(start, start + DELETE_BATCH).map((Key) => ({ Key }));
      // Quiet: only the keys S3 could not delete come back (deleting a missing key succeeds).
      const { Errors } = await this.client.send(new DeleteObjectsCommand({ Bucket: this.bucket, Delete: { Objects, Quiet: true } }));
      const [first] = Errors ?? [];
      if (first) throw new UsageArchiveError(`S3 did not delete ${Errors?.length} usage files, e.g. ${first.Key}: ${first.Code} ${first.Message}`);
    }
  }
}
