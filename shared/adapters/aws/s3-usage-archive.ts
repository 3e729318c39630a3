import type { UsageArchive } from '../../core/ports.ts';
import type { S3Objects } from '../../transport/s3-objects.ts';

export class UsageArchiveError extends Error {
  override readonly name = 'UsageArchiveError';
}

/** What lists and deletes the usage files (S3UsageListing, loaded on first use). */
export interface UsageFileListing {
  list(prefix: string): Promise<string[]>;
  remove(keys: readonly string[]): Promise<void>;
}

/**
 * The usage files in S3 that the Glue table describes (date-partitioned Parquet objects). A file is put and
 * read whole by signed calls (S3Objects): the writer's one call at a cold start loads no SDK client. Listing
 * and deleting (the compactor's) go through `listing`.
 */
export class S3UsageArchive implements UsageArchive {
  private readonly objects: S3Objects;
  private readonly bucket: string;
  private readonly listing: () => Promise<UsageFileListing>;

  constructor(objects: S3Objects, bucket: string, listing: () => Promise<UsageFileListing>) {
    this.objects = objects;
    this.bucket = bucket;
    this.listing = listing;
  }

  async write(key: string, body: Uint8Array): Promise<void> {
    await this.objects.put(this.bucket, key, body, 'application/vnd.apache.parquet');
  }

  async list(prefix: string): Promise<string[]> {
    return (await this.listing()).list(prefix);
  }

  async read(key: string): Promise<Uint8Array> {
    return this.objects.get(this.bucket, key);
  }

  async remove(keys: readonly string[]): Promise<void> {
    await (await this.listing()).remove(keys);
  }
}
