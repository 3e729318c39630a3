import { USAGE_PREFIX } from './usage-file-keys.ts';
import { USAGE_PARTITION_KEY, usageColumns } from './usage-row.ts';

/**
 * The accountants' schema: the Glue table Athena reads over the usage files (Parquet, one or more files per
 * day). Defined once here so the CDK stack and the local DuckDB view (tools/cli/local-usage-query.ts) read
 * the same columns; the queries on it are in named-usage-queries.ts.
 */
export const USAGE_DATABASE_NAME = 'model_gateway';
export const USAGE_TABLE_NAME = 'usage_records';
/** The first day partition projection enumerates; no usage exists before it. */
export const USAGE_FIRST_DAY = '2025-01-01';
/** A day after every day of usage (dt is YYYY-MM-DD, so string order is day order): an open end of a range. */
export const USAGE_LAST_DAY = '9999-12-31';

export const PARQUET_SERDE = 'org.apache.hadoop.hive.ql.io.parquet.serde.ParquetHiveSerDe';
export const PARQUET_INPUT_FORMAT = 'org.apache.hadoop.hive.ql.io.parquet.MapredParquetInputFormat';
export const PARQUET_OUTPUT_FORMAT = 'org.apache.hadoop.hive.ql.io.parquet.MapredParquetOutputFormat';

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
    description:
      'One row per metered gateway request, possibly more than once until the daily compaction: count each record_id once (see the named queries). cost_nanos is exact nano-USD (10^-9 USD).',
    tableType: 'EXTERNAL_TABLE',
    parameters: { EXTERNAL: 'TRUE', classification: 'parquet', ...usagePartitionProjection(bucketName) },
    partitionKeys: usagePartitionKeys,
    storageDescriptor: {
      columns: usageTableColumns,
      location: `s3://${bucketName}/${USAGE_PREFIX}`,
      inputFormat: PARQUET_INPUT_FORMAT,
      outputFormat: PARQUET_OUTPUT_FORMAT,
      serdeInfo: { serializationLibrary: PARQUET_SERDE, parameters: { 'serialization.format': '1' } },
    },
  };
}
