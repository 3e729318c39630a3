import { parquetWriteBuffer, type BasicType } from 'hyparquet-writer';
import { usageColumns, type UsageRow } from './usage-row.ts';

type UsageColumnType = (typeof usageColumns)[number]['type'];

/** Parquet types whose logical types Athena maps to the Glue table's column types (and DuckDB to its own). */
const parquetTypeOf = {
  string: 'STRING',
  boolean: 'BOOLEAN',
  int: 'INT32',
  bigint: 'INT64',
} as const satisfies Record<UsageColumnType, BasicType>;

/**
 * One Parquet file (Snappy-compressed, every column optional, in the table's column order) holding the rows.
 * Only the writer's side: reading lives in usage-parquet-reader.ts, so the writer's bundle has no reader.
 * `columns` is the table's (tests pass fewer, to write a file as an earlier version did).
 */
export function encodeUsageRows(rows: readonly UsageRow[], columns: ReadonlyArray<(typeof usageColumns)[number]> = usageColumns): Uint8Array {
  const columnData = columns.map(({ name, type }) => ({
    name,
    type: parquetTypeOf[type],
    nullable: true,
    // INT64 columns take bigints; a row's integers are exact JavaScript numbers.
    data: rows.map((row) => (type === 'bigint' && typeof row[name] === 'number' ? BigInt(row[name]) : row[name])),
  }));
  return new Uint8Array(parquetWriteBuffer({ columnData, codec: 'SNAPPY' }));
}
