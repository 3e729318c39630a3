import * as z from 'zod';
import { GatewayError } from '../core/errors.ts';
import type { UsageQueryRunner, UsageResultRow } from '../core/ports.ts';
import { formatUsd } from '../core/price-usage.ts';
import { USAGE_PARTITION_KEY, usageColumns } from '../usage-writer/usage-row.ts';
import { deduplicatedUsage } from '../usage-writer/named-usage-queries.ts';
import { usageRangeProblem } from './usage-range-problem.ts';

/** One project's usage over whole UTC days, both inclusive (YYYY-MM-DD). */
export interface UsageRange {
  projectId: string;
  from: string;
  to: string;
}

/** The most rows a CSV download holds: a function's answer is limited to 6 MB. */
export const MAX_EXPORTED_ROWS = 10_000;

/*
 * The console's SQL runs unchanged in Athena (Trino) and DuckDB, like the named queries of
 * named-usage-queries.ts, and like them counts each record once (the usage files may hold copies until the
 * day is compacted). Every query filters on the day partition first, so Athena reads only the days asked for.
 */
const projectRows = `WITH ${deduplicatedUsage('project_id = ?')}\n`;
const FROM_PROJECT = 'FROM deduplicated_usage';
const totals = `COUNT(*) AS requests, SUM(tokens_prompt) AS prompt_tokens, SUM(tokens_completion) AS completion_tokens, SUM(cost_nanos) AS cost_nanos`;

export const projectUsageSql = {
  byDay: `${projectRows}SELECT ${USAGE_PARTITION_KEY} AS day, ${totals} ${FROM_PROJECT} GROUP BY ${USAGE_PARTITION_KEY} ORDER BY ${USAGE_PARTITION_KEY}`,
  byModel: `${projectRows}SELECT model, ${totals} ${FROM_PROJECT} GROUP BY model ORDER BY SUM(cost_nanos) DESC, model`,
  topRequests: `${projectRows}SELECT created_at, id AS request_id, key_id, model, status, http_status, tokens_prompt AS prompt_tokens,
  tokens_completion AS completion_tokens, cost_nanos, latency_ms
${FROM_PROJECT} ORDER BY cost_nanos DESC, created_at DESC, record_id LIMIT 10`,
  rows: `${projectRows}SELECT ${[...usageColumns.map((column) => column.name), USAGE_PARTITION_KEY].join(', ')}
${FROM_PROJECT} ORDER BY created_at, record_id LIMIT ${MAX_EXPORTED_ROWS + 1}`,
} as const;

/** A count that stays far below 2^53 (requests, a status, milliseconds): a number. */
const count = z.union([z.number(), z.string()]).nullable().transform((value) => Number(value ?? 0));
/**
 * Tokens and nano-USD: sums outgrow 2^53 (about 9 million USD a day), beyond which a JSON number is not exact.
 * The runners give an integer beyond it as its decimal text; it stays decimal text, digit for digit, as
 * `project get` gives spend and balance.
 */
const exactInteger = z
  .union([z.number().int(), z.string().regex(/^-?\d+$/)])
  .nullable()
  .transform((value) => BigInt(value ?? 0).toString());
const totalsSchema = z.object({ requests: count, prompt_tokens: exactInteger, completion_tokens: exactInteger, cost_nanos: exactInteger });
const dayRowSchema = totalsSchema.extend({ day: z.string() });
const modelRowSchema = totalsSchema.extend({ model: z.string() });
const requestRowSchema = z.object({
  created_at: z.string(),
  request_id: z.string(),
  key_id: z.string(),
  model: z.string(),
  status: z.string(),
  http_status: count,
  prompt_tokens: exactInteger,
  completion_tokens: exactInteger,
  cost_nanos: exactInteger,
  latency_ms: count,
});

/** Checks a range from a query string (usage-range-problem.ts); the refusal names the fault. */
export function parseUsageRange(projectId: string, from: string | null, to: string | null): UsageRange {
  const problem = usageRangeProblem(from, to);
  if (problem !== undefined || from === null || to === null) {
    throw new GatewayError('invalid_request', problem ?? 'Give the days as ?from=YYYY-MM-DD&to=YYYY-MM-DD.', { code: 'invalid_range' });
  }
  return { projectId, from, to };
}

const paramsOf = (range: UsageRange) => [range.from, range.to, range.projectId];
const withUsd = <T extends { cost_nanos: string }>(row: T) => ({ ...row, cost_usd: formatUsd(BigInt(row.cost_nanos)) });

/**
 * Cost by day and by model, and the ten most expensive requests: the usage page. Tokens and `cost_nanos` are
 * decimal integer strings (exact beyond 2^53), `cost_usd` the same cost as an exact USD decimal.
 */
export async function summarizeProjectUsage(usage: UsageQueryRunner, range: UsageRange) {
  const [byDay, byModel, topRequests] = await Promise.all([
    usage.query(projectUsageSql.byDay, paramsOf(range)),
    usage.query(projectUsageSql.byModel, paramsOf(range)),
    usage.query(projectUsageSql.topRequests, paramsOf(range)),
  ]);
  return {
    from: range.from,
    to: range.to,
    by_day: byDay.map((row) => withUsd(dayRowSchema.parse(row))),
    by_model: byModel.map((row) => withUsd(modelRowSchema.parse(row))),
    top_requests: topRequests.map((row) => withUsd(requestRowSchema.parse(row))),
  };
}

/**
 * The usage rows of the range, oldest first, at most MAX_EXPORTED_ROWS (`truncated` says when there were more),
 * each with `cost_usd` beside `cost_nanos`: a spreadsheet then sums dollars without dividing by 10^9.
 */
export async function exportUsageRows(usage: UsageQueryRunner, range: UsageRange): Promise<{ columns: string[]; rows: UsageResultRow[]; truncated: boolean }> {
  const rows = await usage.query(projectUsageSql.rows, paramsOf(range));
  const columns = [...usageColumns.map((column) => column.name), USAGE_PARTITION_KEY].flatMap((name) => (name === 'cost_nanos' ? [name, 'cost_usd'] : [name]));
  const exported = rows.slice(0, MAX_EXPORTED_ROWS).map((row) => ({ ...row, cost_usd: row.cost_nanos === null || row.cost_nanos === undefined ? null : formatUsd(BigInt(row.cost_nanos)) }));
  return { columns, rows: exported, truncated: rows.length > MAX_EXPORTED_ROWS };
}
