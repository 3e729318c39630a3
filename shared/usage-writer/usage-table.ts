import { USAGE_PARTITION_KEY, usageColumns } from './usage-row.ts';

/**
 * The accountants' schema: the Glue table Athena reads over the usage files, and the named queries
 * run on it. Defined once here so the CDK stack and the local DuckDB view (tools/cli/local-usage-query.ts)
 * read the same columns with the same SQL.
 */
export const USAGE_DATABASE_NAME = 'model_gateway';
export const USAGE_TABLE_NAME = 'usage_records';
/** Key prefix of the usage files in the bucket, and directory under GATEWAY_DATA_DIR locally. */
export const USAGE_PREFIX = 'usage/';
/** The first day partition projection enumerates; no usage exists before it. */
export const USAGE_FIRST_DAY = '2025-01-01';

export const JSON_SERDE = 'org.openx.data.jsonserde.JsonSerDe';
export const TEXT_INPUT_FORMAT = 'org.apache.hadoop.mapred.TextInputFormat';
export const TEXT_OUTPUT_FORMAT = 'org.apache.hadoop.hive.ql.io.HiveIgnoreKeyTextOutputFormat';

export interface GlueColumn {
  name: string;
  type: string;
}

/** The shape of CloudFormation's `AWS::Glue::Table` TableInput (CDK `CfnTable.TableInputProperty`). */
export interface UsageTableInput {
  name: string;
  description: string;
  tableType: 'EXTERNAL_TABLE';
  parameters: Record<string, string>;
  partitionKeys: GlueColumn[];
  storageDescriptor: {
    columns: GlueColumn[];
    location: string;
    inputFormat: string;
    outputFormat: string;
    serdeInfo: { serializationLibrary: string; parameters: Record<string, string> };
  };
}

export const usageTableColumns: GlueColumn[] = usageColumns.map(({ name, type }) => ({ name, type }));
export const usagePartitionKeys: GlueColumn[] = [{ name: USAGE_PARTITION_KEY, type: 'string' }];

/**
 * Partition projection: Athena computes the day partitions from the range instead of reading them from the
 * catalog, so no crawler or `MSCK REPAIR` is needed when a new day starts.
 */
export function usagePartitionProjection(bucketName: string): Record<string, string> {
  const key = USAGE_PARTITION_KEY;
  return {
    'projection.enabled': 'true',
    [`projection.${key}.type`]: 'date',
    [`projection.${key}.format`]: 'yyyy-MM-dd',
    [`projection.${key}.range`]: `${USAGE_FIRST_DAY},NOW`,
    [`projection.${key}.interval`]: '1',
    [`projection.${key}.interval.unit`]: 'DAYS',
    'storage.location.template': `s3://${bucketName}/${USAGE_PREFIX}${key}=\${${key}}/`,
  };
}

export function usageTableInput(bucketName: string): UsageTableInput {
  return {
    name: USAGE_TABLE_NAME,
    description: 'One row per metered gateway request; cost_nanos is exact nano-USD (10^-9 USD).',
    tableType: 'EXTERNAL_TABLE',
    parameters: { EXTERNAL: 'TRUE', classification: 'json', ...usagePartitionProjection(bucketName) },
    partitionKeys: usagePartitionKeys,
    storageDescriptor: {
      columns: usageTableColumns,
      location: `s3://${bucketName}/${USAGE_PREFIX}`,
      inputFormat: TEXT_INPUT_FORMAT,
      outputFormat: TEXT_OUTPUT_FORMAT,
      // A bad line must fail the query, not silently vanish from an invoice.
      serdeInfo: { serializationLibrary: JSON_SERDE, parameters: { 'ignore.malformed.json': 'FALSE' } },
    },
  };
}

export interface NamedUsageQuery {
  name: string;
  description: string;
  sql: string;
}

/*
 * The SQL must run unchanged in Athena (Trino) and DuckDB: standard aggregates only, no `::` casts, no
 * GROUP BY ALL, no dialect functions. Costs are summed as integers (cost_nanos) and only divided for display.
 */
const totals = `COUNT(*) AS requests,
  SUM(tokens_prompt) AS prompt_tokens,
  SUM(tokens_completion) AS completion_tokens,
  SUM(cost_nanos) AS cost_nanos,
  SUM(cost_nanos) / 1e9 AS cost_usd`;

export const namedUsageQueries: readonly NamedUsageQuery[] = [
  {
    name: 'cost-by-project-by-day',
    description: 'Requests, tokens and cost per project per day (UTC).',
    sql: `SELECT dt, project_id,
  ${totals}
FROM ${USAGE_TABLE_NAME}
GROUP BY dt, project_id
ORDER BY dt, project_id`,
  },
  {
    name: 'cost-by-model',
    description: 'Requests, tokens (including cached and reasoning) and cost per model, most expensive first.',
    sql: `SELECT model,
  ${totals},
  SUM(tokens_cached) AS cached_tokens,
  SUM(tokens_reasoning) AS reasoning_tokens
FROM ${USAGE_TABLE_NAME}
GROUP BY model
ORDER BY SUM(cost_nanos) DESC, model`,
  },
  {
    name: 'cost-by-key',
    description: 'Requests, tokens and cost per project key, most expensive first.',
    sql: `SELECT project_id, key_id,
  ${totals}
FROM ${USAGE_TABLE_NAME}
GROUP BY project_id, key_id
ORDER BY SUM(cost_nanos) DESC, project_id, key_id`,
  },
  {
    name: 'cost-by-environment',
    description: "Requests, tokens and cost per client-reported environment ('(none)' when not sent).",
    sql: `SELECT COALESCE(environment, '(none)') AS environment,
  ${totals}
FROM ${USAGE_TABLE_NAME}
GROUP BY COALESCE(environment, '(none)')
ORDER BY SUM(cost_nanos) DESC, COALESCE(environment, '(none)')`,
  },
  {
    name: 'top-requests-by-cost',
    description: 'The 20 most expensive requests.',
    sql: `SELECT dt, created_at, record_id, id AS request_id, project_id, key_id, model, status,
  tokens_prompt AS prompt_tokens, tokens_completion AS completion_tokens,
  cost_nanos, cost_nanos / 1e9 AS cost_usd
FROM ${USAGE_TABLE_NAME}
ORDER BY cost_nanos DESC, created_at, record_id
LIMIT 20`,
  },
  {
    name: 'requests-with-fallbacks',
    description: 'Requests on which the gateway tried at least one fallback (fallback_attempts > 0).',
    sql: `SELECT dt, created_at, record_id, id AS request_id, project_id, key_id, model, provider, status,
  fallback_attempts, cost_nanos, cost_nanos / 1e9 AS cost_usd
FROM ${USAGE_TABLE_NAME}
WHERE fallback_attempts > 0
ORDER BY created_at, record_id`,
  },
];

export function findNamedUsageQuery(name: string): NamedUsageQuery | undefined {
  return namedUsageQueries.find((query) => query.name === name);
}
