import { randomUUID } from 'node:crypto';
import { mkdir, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { UsageArchive } from '../../core/ports.ts';

/** Suffix of a file still being written: never listed, never read as a usage file. */
const TEMPORARY_SUFFIX = '.tmp';

/** The local usage files, laid out as in S3 under the data directory, each written atomically. */
export class FileUsageArchive implements UsageArchive {
  private readonly rootDir: string;

  constructor(rootDir: string) {
    this.rootDir = rootDir;
  }

  async write(key: string, body: Uint8Array): Promise<void> {
    const path = join(this.rootDir, key);
    await mkdir(dirname(path), { recursive: true });
    // Unique per write: two writers of one key at once must not share a temporary file; rename is atomic.
    const temporary = `${path}.${process.pid}.${randomUUID()}${TEMPORARY_SUFFIX}`;
    await writeFile(temporary, body);
    await rename(temporary, path);
  }

  /** The files directly in the directory `prefix` names (it ends with `/`, as the day partitions do). */
  async list(prefix: string): Promise<string[]> {
    if (!prefix.endsWith('/')) throw new Error(`FileUsageArchive lists directories only, not "${prefix}"`);
    try {
      const entries = await readdir(join(this.rootDir, prefix), { withFileTypes: true });
      return entries.filter((entry) => entry.isFile() && !entry.name.endsWith(TEMPORARY_SUFFIX)).map((entry) => `${prefix}${entry.name}`);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
      throw error;
    }
  }

  async read(key: string): Promise<Uint8Array> {
    return new Uint8Array(await readFile(join(this.rootDir, key)));
  }

  async remove(keys: readonly string[]): Promise<void> {
    for (const key of keys) await rm(join(this.rootDir, key), { force: true });
  }
}
