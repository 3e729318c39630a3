import type { UsageArchive } from '../../shared/core/ports.ts';
import { readUsageRows } from '../../shared/usage-writer/usage-parquet-reader.ts';
import type { UsageRow } from '../../shared/usage-writer/usage-row.ts';

/** The usage archive port in memory, with a way to read back every row a test's code wrote. */
export class MemoryUsageArchive implements UsageArchive {
  readonly objects = new Map<string, Uint8Array>();
  readonly writes: string[] = [];

  async write(key: string, body: Uint8Array): Promise<void> {
    this.writes.push(key);
    this.objects.set(key, body);
  }

  async list(prefix: string): Promise<string[]> {
    return [...this.objects.keys()].filter((key) => key.startsWith(prefix));
  }

  async read(key: string): Promise<Uint8Array> {
    const body = this.objects.get(key);
    if (!body) throw new Error(`no usage file ${key}`);
    return body;
  }

  async remove(keys: readonly string[]): Promise<void> {
    for (const key of keys) this.objects.delete(key);
  }

  /** Every file's rows, by key. */
  async rowsByKey(): Promise<Map<string, UsageRow[]>> {
    const rows = new Map<string, UsageRow[]>();
    for (const [key, body] of this.objects) rows.set(key, await readUsageRows(key, body));
    return rows;
  }
}
