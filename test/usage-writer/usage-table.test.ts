import { describe, expect, it } from 'vitest';
import { usageBatchFiles } from '../../shared/usage-writer/usage-batch-files.ts';
import { usageColumns } from '../../shared/usage-writer/usage-row.ts';
import { USAGE_DATABASE_NAME, USAGE_TABLE_NAME, usageTableInput } from '../../shared/usage-writer/usage-table.ts';
import { sampleRecord } from '../support/sample-usage-record.ts';

describe('the Glue table Athena reads', () => {
  const table = usageTableInput('acct-usage-bucket');

  it('is model_gateway.usage_records, an external Parquet table over the usage/ prefix', () => {
    expect(USAGE_DATABASE_NAME).toBe('model_gateway');
    expect(table.name).toBe(USAGE_TABLE_NAME);
    expect(table.name).toBe('usage_records');
    expect(table.tableType).toBe('EXTERNAL_TABLE');
    expect(table.storageDescriptor.location).toBe('s3://acct-usage-bucket/usage/');
    expect(table.parameters.classification).toBe('parquet');
    expect(table.storageDescriptor.serdeInfo.serializationLibrary).toBe('org.apache.hadoop.hive.ql.io.parquet.serde.ParquetHiveSerDe');
    expect(table.storageDescriptor.inputFormat).toBe('org.apache.hadoop.hive.ql.io.parquet.MapredParquetInputFormat');
    expect(table.storageDescriptor.outputFormat).toBe('org.apache.hadoop.hive.ql.io.parquet.MapredParquetOutputFormat');
  });

  it('has the columns of the usage rows, in order, with Hive types', () => {
    expect(table.storageDescriptor.columns).toEqual(usageColumns.map(({ name, type }) => ({ name, type })));
    for (const column of table.storageDescriptor.columns) expect(['string', 'boolean', 'int', 'bigint']).toContain(column.type);
  });

  it("has both later additions' columns: the editor's compression savings and the units billed beyond tokens", () => {
    const bigints = table.storageDescriptor.columns.filter((column) => column.type === 'bigint').map((column) => column.name);
    for (const name of ['compression_saved_tokens', 'units_requests', 'units_images', 'units_audio_seconds', 'units_characters', 'units_search_units', 'units_video_seconds']) {
      expect(bigints).toContain(name);
    }
  });

  it('appends the columns added after usage files existed (end_user, tokens_cache_write_1h, then units_web_searches), so that older files keep theirs', () => {
    expect(table.storageDescriptor.columns.slice(-3)).toEqual([
      { name: 'end_user', type: 'string' },
      { name: 'tokens_cache_write_1h', type: 'bigint' },
      { name: 'units_web_searches', type: 'bigint' },
    ]);
  });

  it('is partitioned by the string dt, which is not also a data column (Athena rejects duplicates)', () => {
    expect(table.partitionKeys).toEqual([{ name: 'dt', type: 'string' }]);
    expect(table.storageDescriptor.columns.map((column) => column.name)).not.toContain('dt');
  });

  it('projects one dt partition per day since 2025-01-01 instead of registering partitions', () => {
    expect(table.parameters).toMatchObject({
      'projection.enabled': 'true',
      'projection.dt.type': 'date',
      'projection.dt.format': 'yyyy-MM-dd',
      'projection.dt.range': '2025-01-01,NOW',
      'projection.dt.interval': '1',
      'projection.dt.interval.unit': 'DAYS',
      'storage.location.template': 's3://acct-usage-bucket/usage/dt=${dt}/',
    });
  });

  it('projects each partition onto the directory the writer puts the record in', () => {
    const record = sampleRecord({ createdAt: '2025-07-04T12:00:00.000Z' });
    const template = table.parameters['storage.location.template'] ?? '';
    const partitionDirectory = template.replace('${dt}', '2025-07-04');
    const [file] = usageBatchFiles([record]);
    expect(`s3://acct-usage-bucket/${file?.key}`).toMatch(new RegExp(`^${partitionDirectory.replaceAll('.', '\\.')}[^/]+\\.parquet$`));
  });
});
