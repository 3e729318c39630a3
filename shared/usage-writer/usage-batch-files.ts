import type { UsageRecord } from '../core/usage-record.ts';
import { usageFileKey } from './usage-file-keys.ts';
import { encodeUsageRows } from './usage-parquet.ts';
import { toUsageRow, usageDayOf } from './usage-row.ts';

/** One object to write to the usage archive, and the records it holds. */
export interface UsageFile {
  key: string;
  body: Uint8Array;
  recordIds: string[];
}

/**
 * The usage files of one writer delivery: one Parquet file per day its records fall on (a batch around
 * midnight spans two), each record once even when the batch carries it twice.
 */
export function usageBatchFiles(records: readonly UsageRecord[]): UsageFile[] {
  const byDay = new Map<string, Map<string, UsageRecord>>();
  for (const record of records) {
    const day = usageDayOf(record);
    const ofDay = byDay.get(day) ?? new Map<string, UsageRecord>();
    ofDay.set(record.recordId, record);
    byDay.set(day, ofDay);
  }
  return [...byDay].map(([day, ofDay]) => {
    // In a fixed order, so the same records make the same bytes whatever order they were delivered in.
    const records = [...ofDay.values()].sort((a, b) => a.createdAt.localeCompare(b.createdAt) || a.recordId.localeCompare(b.recordId));
    const recordIds = records.map((record) => record.recordId);
    return { key: usageFileKey(day, 'batch', recordIds), body: encodeUsageRows(records.map(toUsageRow)), recordIds };
  });
}
