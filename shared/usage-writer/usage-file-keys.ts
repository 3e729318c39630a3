import { createHash } from 'node:crypto';
import { USAGE_PARTITION_KEY } from './usage-row.ts';

/** Key prefix of the usage files in the bucket, and directory under the data directory locally. */
export const USAGE_PREFIX = 'usage/';
export const USAGE_FILE_EXTENSION = '.parquet';

/** `usage/dt=YYYY-MM-DD/`: the partition of one UTC day. */
export function usageDayPrefix(day: string): string {
  return `${USAGE_PREFIX}${USAGE_PARTITION_KEY}=${day}/`;
}

/**
 * What a usage file is: `batch` files come from one writer delivery, a `compacted` file holds a whole day
 * once the compaction has merged its batch files.
 */
export type UsageFileKind = 'batch' | 'compacted';

/**
 * `usage/dt=<day>/<kind>-<digest>.parquet`, the digest taken over the record ids the file holds: writing
 * the same records again replaces the same object with the same bytes instead of adding a copy.
 */
export function usageFileKey(day: string, kind: UsageFileKind, recordIds: readonly string[]): string {
  const digest = createHash('sha256').update([...recordIds].sort().join('\n')).digest('hex').slice(0, 32);
  return `${usageDayPrefix(day)}${kind}-${digest}${USAGE_FILE_EXTENSION}`;
}
