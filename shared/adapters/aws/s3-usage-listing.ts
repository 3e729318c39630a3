import { DeleteObjectsCommand, paginateListObjectsV2, type S3Client } from '@aws-sdk/client-s3';
import { UsageArchiveError } from './s3-usage-archive.ts';

/** S3's limit of keys per DeleteObjects request. */
const DELETE_BATCH = 1000;

/**
 * Listing and deleting the usage files, with the SDK's S3 client (a listing's pages and a batch delete's
 * XML): only the compactor does either, after its cold start, so the client is loaded on first use.
 */
export class S3UsageListing {
  private readonly client: S3Client;
  private readonly bucket: string;

  constructor(client: S3Client, bucket: string) {
    this.client = client;
    this.bucket = bucket;
  }

  async list(prefix: string): Promise<string[]> {
    const keys: string[] = [];
    for await (const page of paginateListObjectsV2({ client: this.client }, { Bucket: this.bucket, Prefix: prefix })) {
      for (const object of page.Contents ?? []) if (object.Key !== undefined) keys.push(object.Key);
    }
    return keys;
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
