import type { UsageArchive } from '../core/ports.ts';
import { usageDayPrefix, usageFileKey, USAGE_FILE_EXTENSION } from './usage-file-keys.ts';
import { encodeUsageRows } from './usage-parquet.ts';
import { LEGACY_USAGE_FILE_EXTENSION, readUsageRows } from './usage-parquet-reader.ts';
import type { UsageRow } from './usage-row.ts';

/** What the compaction did to one day. */
export interface DayCompaction {
  day: string;
  /** Usage files found in the day's partition. */
  files: number;
  /** Rows in them, copies included. */
  rows: number;
  /** Distinct records: the rows of the compacted file. */
  records: number;
  /** The compacted file, absent when the day needed no compaction. */
  compactedKey?: string;
}

/** Files read at once: S3 answers each GET in tens of milliseconds, and a busy day has thousands. */
const READ_CONCURRENCY = 16;

async function forEachConcurrently<T>(items: readonly T[], limit: number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const item = items[next] as T;
      next += 1;
      await work(item);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
}

const isUsageFile = (key: string) => key.endsWith(USAGE_FILE_EXTENSION) || key.endsWith(LEGACY_USAGE_FILE_EXTENSION);
const byTimeThenId = (a: UsageRow, b: UsageRow) => String(a.created_at).localeCompare(String(b.created_at)) || String(a.record_id).localeCompare(String(b.record_id));

/**
 * Merges a day's usage files into one Parquet file holding each record once, then removes the files it read.
 * Safe to repeat and to interrupt: the compacted file is named after the records it holds, so a rerun over
 * the same records rewrites the same object, and until the inputs are gone the queries count each
 * record_id once anyway. Files written during the compaction are not read, so they are kept for the next run.
 */
export async function compactUsageDay(archive: UsageArchive, day: string): Promise<DayCompaction> {
  const keys = (await archive.list(usageDayPrefix(day))).filter(isUsageFile).sort();
  if (keys.length <= 1 && keys.every((key) => key.endsWith(USAGE_FILE_EXTENSION))) return { day, files: keys.length, rows: 0, records: 0 };
  const unique = new Map<string, UsageRow>();
  let rows = 0;
  await forEachConcurrently(keys, READ_CONCURRENCY, async (key) => {
    for (const row of await readUsageRows(key, await archive.read(key))) {
      rows += 1;
      if (!unique.has(String(row.record_id))) unique.set(String(row.record_id), row);
    }
  });
  if (unique.size === 0) return { day, files: keys.length, rows, records: 0 };
  const merged = [...unique.values()].sort(byTimeThenId);
  const compactedKey = usageFileKey(day, 'compacted', [...unique.keys()]);
  await archive.write(compactedKey, encodeUsageRows(merged));
  await archive.remove(keys.filter((key) => key !== compactedKey));
  return { day, files: keys.length, rows, records: merged.length, compactedKey };
}
