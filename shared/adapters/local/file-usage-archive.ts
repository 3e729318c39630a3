import { randomUUID } from 'node:crypto';
import { mkdir, rename, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { UsageArchive } from '../../core/ports.ts';
import type { UsageRecord } from '../../core/usage-record.ts';
import { serializeUsageRow, usageObjectKey } from '../../usage-writer/usage-row.ts';

/** The local usage files, laid out as in S3 under the data directory, each written atomically. */
export class FileUsageArchive implements UsageArchive {
  constructor(private readonly rootDir: string) {}

  async put(record: UsageRecord): Promise<void> {
    const path = join(this.rootDir, usageObjectKey(record));
    await mkdir(dirname(path), { recursive: true });
    // Unique per write: a record put twice at once (a duplicate in one batch) must not share a temporary file.
    const temporary = `${path}.${process.pid}.${randomUUID()}.tmp`;
    await writeFile(temporary, serializeUsageRow(record));
    await rename(temporary, path);
  }
}
