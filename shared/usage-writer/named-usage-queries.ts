import { USAGE_PARTITION_KEY } from './usage-row.ts';
import { USAGE_TABLE_NAME } from './usage-table.ts';

export interface NamedUsageQuery {
  name: string;
  description: string;
  sql: string;
}

/** Every named query takes the first and the last UTC day it covers, inclusive, as 'YYYY-MM-DD' strings. */
export const NAMED_QUERY_PARAMETERS = ['first day (YYYY-MM-DD)', 'last day (YYYY-MM-DD)'] as const;
export type NamedQueryDays = [first: string, last: string];

/**
 * The usage rows of the days `?` to `?` (and `alsoWhere`, with its own parameters after the days), each record once. The usage files may hold a record more than
 * once (a batch redelivered after its file was written, a compaction not yet finished), always in its own
 * day, so numbering the copies per (dt, record_id) and keeping the first makes every total exact. The
 * `dt` condition sits on the table itself: Athena reads only those days' partitions.
 */
export function deduplicatedUsage(alsoWhere?: string): string {
  return `deduplicated_usage AS (
  ${firstCopies(`${USAGE_PARTITION_KEY} BETWEEN ? AND ?${alsoWhere ? ` AND ${alsoWhere}` : ''}`)}
)`;
}

/** The usage rows (of the days `where` selects, else every day), each record once: the first copy of each. */
export function firstCopies(where?: string): string {
  return `SELECT * FROM (
    SELECT ${USAGE_TABLE_NAME}.*, ROW_NUMBER() OVER (PARTITION BY ${USAGE_PARTITION_KEY}, record_id ORDER BY created_at) AS copy_number
    FROM ${USAGE_TABLE_NAME}${where ? `
    WHERE ${where}` : ''}
  ) numbered
  WHERE copy_number = 1`;
}

/** Every project's rows of the days `?` to `?`, each record once. */
export const DEDUPLICATED_USAGE = deduplicatedUsage();

/*
 * The SQL must run unchanged in Athena (Trino) and DuckDB: standard aggregates and window functions only,
 * `?` parameters, no `::` casts, no GROUP BY ALL, no dialect functions. Costs are summed as integers
 * (cost_nanos) and only scaled for display.
 */

/**
 * Nano-USD as exact USD, DECIMAL(38, 9) in both engines. Not `/ 1e9`: that is a DOUBLE, which Athena
 * prints as 2.0E-7 and which loses digits beyond 2^53 nano-USD; and not a decimal division, which DuckDB
 * answers as a DOUBLE. A product of decimals keeps its scale (9 + 0) in both.
 */
export function nanosAsUsd(nanos: string): string {
  return `CAST(${nanos} AS DECIMAL(38, 0)) * CAST(0.000000001 AS DECIMAL(10, 9))`;
}

const totals = `COUNT(*) AS requests,
  SUM(tokens_prompt) AS prompt_tokens,
  SUM(tokens_completion) AS completion_tokens,
  SUM(cost_nanos) AS cost_nanos,
  ${nanosAsUsd('SUM(cost_nanos)')} AS cost_usd`;

function namedQuery(name: string, description: string, select: string): NamedUsageQuery {
  return { name, description, sql: `WITH ${DEDUPLICATED_USAGE}\n${select}` };
}

export const namedUsageQueries: readonly NamedUsageQuery[] = [
  namedQuery('cost-by-project-by-day', 'Requests, tokens and cost per project per day (UTC).', `SELECT dt, project_id,
  ${totals}
FROM deduplicated_usage
GROUP BY dt, project_id
ORDER BY dt, project_id`),
  namedQuery('cost-by-model', 'Requests, tokens (including cached and reasoning) and cost per model, most expensive first.', `SELECT model,
  ${totals},
  SUM(tokens_cached) AS cached_tokens,
  SUM(tokens_reasoning) AS reasoning_tokens
FROM deduplicated_usage
GROUP BY model
ORDER BY SUM(cost_nanos) DESC, model`),
  namedQuery('cost-by-key', 'Requests, tokens and cost per project key, most expensive first.', `SELECT project_id, key_id,
  ${totals}
FROM deduplicated_usage
GROUP BY project_id, key_id
ORDER BY SUM(cost_nanos) DESC, project_id, key_id`),
  namedQuery('cost-by-environment', "Requests, tokens and cost per client-reported environment ('(none)' when not sent).", `SELECT COALESCE(environment, '(none)') AS environment,
  ${totals}
FROM deduplicated_usage
GROUP BY COALESCE(environment, '(none)')
ORDER BY SUM(cost_nanos) DESC, COALESCE(environment, '(none)')`),
  namedQuery('cost-by-session', 'Requests, tokens and cost per client session (X-Claude-Code-Session-Id), most expensive first.', `SELECT session_id,
  ${totals}
FROM deduplicated_usage
WHERE session_id IS NOT NULL
GROUP BY session_id
ORDER BY SUM(cost_nanos) DESC, session_id`),
  // Per project: each app names its users its own way, so one id in two projects is two users.
  namedQuery('cost-by-end-user', "Requests, tokens and cost per end user the request bodies named (OpenAI's user, Anthropic's metadata.user_id) in each project, most expensive first.", `SELECT project_id, end_user,
  ${totals}
FROM deduplicated_usage
WHERE end_user IS NOT NULL
GROUP BY project_id, end_user
ORDER BY SUM(cost_nanos) DESC, project_id, end_user`),
  namedQuery('top-requests-by-cost', 'The 20 most expensive requests.', `SELECT dt, created_at, record_id, id AS request_id, project_id, key_id, model, status,
  tokens_prompt AS prompt_tokens, tokens_completion AS completion_tokens,
  cost_nanos, ${nanosAsUsd('cost_nanos')} AS cost_usd
FROM deduplicated_usage
ORDER BY cost_nanos DESC, created_at, record_id
LIMIT 20`),
  namedQuery('requests-with-fallbacks', 'Requests on which the gateway tried at least one fallback (fallback_attempts > 0).', `SELECT dt, created_at, record_id, id AS request_id, project_id, key_id, model, provider, status,
  fallback_attempts, cost_nanos, ${nanosAsUsd('cost_nanos')} AS cost_usd
FROM deduplicated_usage
WHERE fallback_attempts > 0
ORDER BY created_at, record_id`),
];

export function findNamedUsageQuery(name: string): NamedUsageQuery | undefined {
  return namedUsageQueries.find((query) => query.name === name);
}

/** The description Athena shows, which says what to fill in for the two `?`. */
export function athenaQueryDescription(query: NamedUsageQuery): string {
  return `${query.description} Parameters: the first and the last UTC day, inclusive, e.g. '2026-11-01' and '2026-11-30'.`;
}
