import { parquetReadObjects } from 'hyparquet';
import { usageColumns, type UsageColumnName, type UsageRow } from './usage-row.ts';
import { USAGE_FILE_EXTENSION } from './usage-file-keys.ts';

/** The usage files before Parquet: one JSON row per line (`<recordId>.json`); the compaction converts them. */
export const LEGACY_USAGE_FILE_EXTENSION = '.json';

export class UnreadableUsageFileError extends Error {
  override readonly name = 'UnreadableUsageFileError';
}

function columnValue(key: string, name: UsageColumnName, type: (typeof usageColumns)[number]['type'], value: unknown): UsageRow[UsageColumnName] {
  if (value === null || value === undefined) return null;
  if (type === 'string' && typeof value === 'string') return value;
  if (type === 'boolean' && typeof value === 'boolean') return value;
  if ((type === 'int' || type === 'bigint') && (typeof value === 'number' || typeof value === 'bigint') && Number.isSafeInteger(Number(value))) return Number(value);
  throw new UnreadableUsageFileError(`${key}: column ${name} holds ${typeof value} ${String(value)}, not a ${type}`);
}

/** A row as read from a file, checked column by column against the table's types. */
function toUsageRow(key: string, raw: unknown): UsageRow {
  if (typeof raw !== 'object' || raw === null) throw new UnreadableUsageFileError(`${key}: a row is not an object`);
  const values = raw as Record<string, unknown>;
  const row = Object.fromEntries(usageColumns.map(({ name, type }) => [name, columnValue(key, name, type, values[name])]));
  if (typeof row.record_id !== 'string') throw new UnreadableUsageFileError(`${key}: a row has no record_id`);
  return row as UsageRow;
}

/** The rows of one usage file: Parquet, or the legacy JSON lines. A file that is neither fails loudly. */
export async function readUsageRows(key: string, body: Uint8Array): Promise<UsageRow[]> {
  if (key.endsWith(USAGE_FILE_EXTENSION)) {
    const file = body.buffer.slice(body.byteOffset, body.byteOffset + body.byteLength) as ArrayBuffer;
    return (await parquetReadObjects({ file })).map((raw) => toUsageRow(key, raw));
  }
  if (key.endsWith(LEGACY_USAGE_FILE_EXTENSION)) {
    const lines = new TextDecoder().decode(body).split('\n').filter((line) => line.trim() !== '');
    return lines.map((line) => {
      try {
        return toUsageRow(key, JSON.parse(line));
      } catch (error) {
        if (error instanceof UnreadableUsageFileError) throw error;
        throw new UnreadableUsageFileError(`${key}: a line is not JSON`, { cause: error });
      }
    });
  }
  throw new UnreadableUsageFileError(`${key}: not a usage file (${USAGE_FILE_EXTENSION} or ${LEGACY_USAGE_FILE_EXTENSION})`);
}
