import { join, resolve } from 'node:path';
import { DuckDBDecimalValue, DuckDBInstance, JSDuckDBValueConverter, type DuckDBConnection, type DuckDBValueConverter, type JS } from '@duckdb/node-api';
import * as z from 'zod';
import { formatScaledInteger } from '../../shared/core/usd-decimal.ts';
import { DEDUPLICATED_USAGE, firstCopies } from '../../shared/usage-writer/named-usage-queries.ts';
import { USAGE_FILE_EXTENSION, USAGE_PREFIX } from '../../shared/usage-writer/usage-file-keys.ts';
import { USAGE_PARTITION_KEY, usageColumns } from '../../shared/usage-writer/usage-row.ts';
import { USAGE_FIRST_DAY, USAGE_LAST_DAY, USAGE_TABLE_NAME } from '../../shared/usage-writer/usage-table.ts';

/**
 * Runs the accountants' SQL on this machine: an in-memory DuckDB with a view `usage_records` over the usage
 * files under `<dataDir>/usage/dt=YYYY-MM-DD/*.parquet`, with the same columns the Glue table has, so a
 * query that works here works in Athena (copies of a record included, as there: see DEDUPLICATED_USAGE).
 */

type UsageColumnType = (typeof usageColumns)[number]['type'];

const duckdbTypeOf = {
  string: 'VARCHAR',
  boolean: 'BOOLEAN',
  int: 'INTEGER',
  bigint: 'BIGINT',
} as const satisfies Record<UsageColumnType, string>;

export type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };
export type UsageQueryRow = Record<string, JsonValue>;
/** Positional (`?`, as the named queries use) or named (`$name`) parameters. */
export type UsageQueryParams = string[] | Record<string, string>;

export interface UsageReportFilter {
  projectId?: string;
  /** Inclusive UTC days, YYYY-MM-DD. */
  from?: string;
  to?: string;
}

export interface UsageReportLine {
  day: string;
  projectId: string;
  model: string;
  requests: number;
  /** Of the requests, those that failed (billed what the provider took, often nothing). */
  failed: number;
  promptTokens: bigint;
  /** Of the prompt tokens, those read from and written to the provider's cache: priced apart on invoices. */
  cachedTokens: bigint;
  cacheWriteTokens: bigint;
  completionTokens: bigint;
  webSearches: bigint;
  costNanos: bigint;
}

export interface LocalUsage {
  /** False while no usage file exists yet; the view is then empty instead of failing with "no files found". */
  readonly hasUsageFiles: boolean;
  /** Runs SQL and returns JSON-safe rows; throws DuckDB's error for bad SQL. */
  query(sql: string, params?: UsageQueryParams): Promise<UsageQueryRow[]>;
  /** Requests, tokens and exact cost per day, project and model. */
  report(filter: UsageReportFilter): Promise<UsageReportLine[]>;
  close(): void;
}

export function usageFilesGlob(dataDir: string): string {
  return join(resolve(dataDir), USAGE_PREFIX, `${USAGE_PARTITION_KEY}=*`, `*${USAGE_FILE_EXTENSION}`);
}

function sqlString(text: string): string {
  return `'${text.replaceAll("'", "''")}'`;
}

/**
 * The table's columns in its order, cast to its types, then `dt` from the path. Columns are matched by name,
 * as Athena does for Parquet: a file written by a later version with more columns still reads, and so does
 * one written before a column was added (`end_user`): the union with the table's empty row set gives every
 * column a type, so a column no file has yet is null instead of a binder error.
 */
function readUsageFilesSql(glob: string): string {
  const columns = usageColumns.map(({ name, type }) => `CAST(${name} AS ${duckdbTypeOf[type]}) AS ${name}`);
  return `SELECT ${columns.join(', ')}, ${USAGE_PARTITION_KEY} FROM (
    ${emptyUsageSql()}
    UNION ALL BY NAME
    SELECT * FROM read_parquet(${sqlString(glob)}, hive_partitioning = true,
      hive_types = {${sqlString(USAGE_PARTITION_KEY)}: 'VARCHAR'}, union_by_name = true)
  )`;
}

/** Same columns, no rows: what the view is before the first record is written. */
function emptyUsageSql(): string {
  const columns = usageColumns.map(({ name, type }) => `CAST(NULL AS ${duckdbTypeOf[type]}) AS ${name}`);
  return `SELECT ${columns.join(', ')}, CAST(NULL AS VARCHAR) AS ${USAGE_PARTITION_KEY} WHERE false`;
}

/** BigInt → number when exact, else its decimal string; dates → ISO strings; bytes → base64. */
export function toJsonValue(value: JS): JsonValue {
  if (typeof value === 'bigint') return Number.isSafeInteger(Number(value)) ? Number(value) : value.toString();
  if (value instanceof Date) return value.toISOString();
  if (value instanceof Uint8Array) return Buffer.from(value).toString('base64');
  if (Array.isArray(value)) return value.map(toJsonValue);
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, toJsonValue(item)]));
  }
  return value;
}

/**
 * DuckDB's JS values, but a DECIMAL (the named queries' cost_usd) as its exact decimal text: the driver's
 * default makes it a double, which JSON prints as 2e-7 and which drops digits beyond 2^53.
 */
const exactDecimals: DuckDBValueConverter<JS> = (value, type, converter) =>
  value instanceof DuckDBDecimalValue ? formatScaledInteger(value.value, value.scale) : JSDuckDBValueConverter(value, type, converter);

async function runJs(connection: DuckDBConnection, sql: string, params?: UsageQueryParams) {
  const reader = await connection.runAndReadAll(sql, params);
  return reader.convertRowObjects(exactDecimals);
}

const reportRowSchema = z.object({
  dt: z.string(),
  project_id: z.string(),
  model: z.string(),
  requests: z.bigint(),
  failed: z.bigint(),
  prompt_tokens: z.bigint(),
  cached_tokens: z.bigint(),
  cache_write_tokens: z.bigint(),
  completion_tokens: z.bigint(),
  web_searches: z.bigint(),
  cost_nanos: z.bigint(),
});

/** The report counts each record once, as the named queries do (DEDUPLICATED_USAGE, with its two days). */
function reportSql(filter: UsageReportFilter): { sql: string; params: string[] } {
  const params = [filter.from ?? USAGE_FIRST_DAY, filter.to ?? USAGE_LAST_DAY];
  let where = '';
  if (filter.projectId !== undefined) {
    where = 'WHERE project_id = ?';
    params.push(filter.projectId);
  }
  const sql = `WITH ${DEDUPLICATED_USAGE}
  SELECT dt, project_id, model, COUNT(*) AS requests,
    COUNT(*) FILTER (WHERE status = 'failed') AS failed,
    COALESCE(SUM(tokens_prompt), 0) AS prompt_tokens,
    COALESCE(SUM(tokens_cached), 0) AS cached_tokens,
    COALESCE(SUM(tokens_cache_write), 0) AS cache_write_tokens,
    COALESCE(SUM(tokens_completion), 0) AS completion_tokens,
    COALESCE(SUM(units_web_searches), 0)::BIGINT AS web_searches,
    COALESCE(SUM(cost_nanos), 0) AS cost_nanos
  FROM deduplicated_usage ${where}
  GROUP BY dt, project_id, model
  ORDER BY dt, project_id, model`;
  return { sql, params };
}

export async function openLocalUsage(dataDir: string): Promise<LocalUsage> {
  const instance = await DuckDBInstance.create(':memory:');
  const connection = await instance.connect();
  const close = () => {
    connection.closeSync();
    instance.closeSync();
  };
  try {
    const glob = usageFilesGlob(dataDir);
    const [found] = await runJs(connection, `SELECT COUNT(*) AS files FROM glob(${sqlString(glob)})`);
    const hasUsageFiles = found !== undefined && found.files !== 0n;
    const source = hasUsageFiles ? readUsageFilesSql(glob) : emptyUsageSql();
    await connection.run(`CREATE VIEW ${USAGE_TABLE_NAME} AS ${source}`);
    // Locally only (Athena has the table alone): every day's rows, each record once, for queries of one's own.
    await connection.run(`CREATE VIEW deduplicated_usage AS ${firstCopies()}`);
    return {
      hasUsageFiles,
      query: async (sql, params) => (await runJs(connection, sql, params)).map(
        (row) => Object.fromEntries(Object.entries(row).map(([key, value]) => [key, toJsonValue(value)])),
      ),
      report: async (filter) => {
        const { sql, params } = reportSql(filter);
        return (await runJs(connection, sql, params)).map((row) => {
          const line = reportRowSchema.parse(row);
          return {
            day: line.dt,
            projectId: line.project_id,
            model: line.model,
            requests: Number(line.requests),
            failed: Number(line.failed),
            promptTokens: line.prompt_tokens,
            cachedTokens: line.cached_tokens,
            cacheWriteTokens: line.cache_write_tokens,
            completionTokens: line.completion_tokens,
            webSearches: line.web_searches,
            costNanos: line.cost_nanos,
          };
        });
      },
      close,
    };
  } catch (error) {
    close();
    throw error;
  }
}

/** Opens, runs one query and closes. */
export async function queryLocalUsage(dataDir: string, sql: string, params?: UsageQueryParams): Promise<UsageQueryRow[]> {
  const usage = await openLocalUsage(dataDir);
  try {
    return await usage.query(sql, params);
  } finally {
    usage.close();
  }
}
