import { rm } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type LocalUsage, openLocalUsage, type UsageQueryRow } from '../../tools/cli/local-usage-query.ts';
import { usageColumns, usageObjectKey } from '../../shared/usage-writer/usage-row.ts';
import {
  findNamedUsageQuery,
  namedUsageQueries,
  USAGE_DATABASE_NAME,
  USAGE_TABLE_NAME,
  usageTableInput,
} from '../../shared/usage-writer/usage-table.ts';
import { makeTempDataDir, sampleRecord, writeUsageFiles } from '../support/sample-usage-record.ts';

describe('the Glue table Athena reads', () => {
  const table = usageTableInput('acct-usage-bucket');

  it('is model_gateway.usage_records, an external JSON table over the usage/ prefix', () => {
    expect(USAGE_DATABASE_NAME).toBe('model_gateway');
    expect(table.name).toBe(USAGE_TABLE_NAME);
    expect(table.name).toBe('usage_records');
    expect(table.tableType).toBe('EXTERNAL_TABLE');
    expect(table.storageDescriptor.location).toBe('s3://acct-usage-bucket/usage/');
    expect(table.storageDescriptor.serdeInfo.serializationLibrary).toBe('org.openx.data.jsonserde.JsonSerDe');
    expect(table.storageDescriptor.inputFormat).toBe('org.apache.hadoop.mapred.TextInputFormat');
    expect(table.storageDescriptor.outputFormat).toBe('org.apache.hadoop.hive.ql.io.HiveIgnoreKeyTextOutputFormat');
  });

  it('has the columns of the usage rows, in order, with Hive types', () => {
    expect(table.storageDescriptor.columns).toEqual(usageColumns.map(({ name, type }) => ({ name, type })));
    for (const column of table.storageDescriptor.columns) expect(['string', 'boolean', 'int', 'bigint']).toContain(column.type);
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
    expect(`${partitionDirectory}${record.recordId}.json`).toBe(`s3://acct-usage-bucket/${usageObjectKey(record)}`);
  });
});

describe('the named queries', () => {
  it('have unique kebab-case names, a description, and read usage_records', () => {
    const names = namedUsageQueries.map((query) => query.name);
    expect(new Set(names).size).toBe(names.length);
    for (const query of namedUsageQueries) {
      expect(query.name).toMatch(/^[a-z]+(-[a-z]+)*$/);
      expect(query.description.length).toBeGreaterThan(10);
      expect(query.sql).toMatch(/\bFROM usage_records\b/);
    }
  });

  it('avoid syntax only one of DuckDB and Athena (Trino) understands', () => {
    const dialectOnly = [/::/, /GROUP BY ALL/i, /\bQUALIFY\b/i, /\bILIKE\b/i, /FILTER\s*\(/i, /\bTRY_CAST\b/i, /"/, /\bstrftime\b/i];
    for (const query of namedUsageQueries) {
      for (const pattern of dialectOnly) expect(query.sql, `${query.name} uses ${String(pattern)}`).not.toMatch(pattern);
    }
  });

  it('are found by name', () => {
    expect(findNamedUsageQuery('cost-by-model')?.name).toBe('cost-by-model');
    expect(findNamedUsageQuery('no-such-query')).toBeUndefined();
  });
});

describe('the named queries run in DuckDB on usage files', () => {
  const a = sampleRecord({ projectId: 'acme', keyId: 'key-1', model: 'openai/gpt-4o', createdAt: '2025-03-01T08:00:00Z',
    promptTokens: 100, completionTokens: 20, cachedTokens: 10, costNanos: 1_000_000_000, attribution: { environment: 'production' } });
  const b = sampleRecord({ projectId: 'acme', keyId: 'key-2', model: 'openai/gpt-4o', createdAt: '2025-03-01T09:00:00Z',
    promptTokens: 50, completionTokens: 10, reasoningTokens: 5, costNanos: 250_000_000, fallbackAttempts: 1,
    attribution: { environment: 'staging' } });
  const c = sampleRecord({ projectId: 'acme', keyId: 'key-1', model: 'anthropic/claude-sonnet', provider: 'anthropic',
    createdAt: '2025-03-02T08:00:00Z', promptTokens: 300, completionTokens: 30, costNanos: 3_000_000_001,
    attribution: { environment: 'production' } });
  const d = sampleRecord({ projectId: 'globex', keyId: 'key-9', model: 'openai/gpt-4o', createdAt: '2025-03-02T10:00:00Z',
    promptTokens: 10, completionTokens: 1, costNanos: 7, fallbackAttempts: 2, status: 'failed', httpStatus: 502 });

  const totals = (requests: number, prompt: number, completion: number, nanos: number) => ({
    requests, prompt_tokens: prompt, completion_tokens: completion, cost_nanos: nanos, cost_usd: nanos / 1e9,
  });
  const request = (record: typeof a) => ({
    dt: record.createdAt.slice(0, 10), created_at: record.createdAt, record_id: record.recordId, request_id: record.requestId,
    project_id: record.projectId, key_id: record.keyId, model: record.model, status: record.status,
    cost_nanos: record.costNanos, cost_usd: record.costNanos / 1e9,
  });

  const expectedRows: Record<string, UsageQueryRow[]> = {
    'cost-by-project-by-day': [
      { dt: '2025-03-01', project_id: 'acme', ...totals(2, 150, 30, 1_250_000_000) },
      { dt: '2025-03-02', project_id: 'acme', ...totals(1, 300, 30, 3_000_000_001) },
      { dt: '2025-03-02', project_id: 'globex', ...totals(1, 10, 1, 7) },
    ],
    'cost-by-model': [
      { model: 'anthropic/claude-sonnet', ...totals(1, 300, 30, 3_000_000_001), cached_tokens: 0, reasoning_tokens: 0 },
      { model: 'openai/gpt-4o', ...totals(3, 160, 31, 1_250_000_007), cached_tokens: 10, reasoning_tokens: 5 },
    ],
    'cost-by-key': [
      { project_id: 'acme', key_id: 'key-1', ...totals(2, 400, 50, 4_000_000_001) },
      { project_id: 'acme', key_id: 'key-2', ...totals(1, 50, 10, 250_000_000) },
      { project_id: 'globex', key_id: 'key-9', ...totals(1, 10, 1, 7) },
    ],
    'cost-by-environment': [
      { environment: 'production', ...totals(2, 400, 50, 4_000_000_001) },
      { environment: 'staging', ...totals(1, 50, 10, 250_000_000) },
      { environment: '(none)', ...totals(1, 10, 1, 7) },
    ],
    'top-requests-by-cost': [c, a, b, d].map((record) => ({
      ...request(record), prompt_tokens: record.promptTokens, completion_tokens: record.completionTokens,
    })),
    'requests-with-fallbacks': [b, d].map((record) => ({
      ...request(record), provider: record.provider, fallback_attempts: record.fallbackAttempts,
    })),
  };

  let dataDir: string;
  let usage: LocalUsage;

  beforeAll(async () => {
    dataDir = await makeTempDataDir();
    await writeUsageFiles(dataDir, [a, b, c, d]);
    usage = await openLocalUsage(dataDir);
  });

  afterAll(async () => {
    usage.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  it('has expected numbers for every named query', () => {
    expect(Object.keys(expectedRows).sort()).toEqual(namedUsageQueries.map((query) => query.name).sort());
  });

  it.each(namedUsageQueries.map((query) => [query.name, query] as const))('%s gives the expected rows', async (name, query) => {
    expect(await usage.query(query.sql)).toEqual(expectedRows[name]);
  });
});
