import { rm } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type LocalUsage, openLocalUsage, type UsageQueryRow } from '../../tools/cli/local-usage-query.ts';
import { findNamedUsageQuery, namedUsageQueries, type NamedQueryDays } from '../../shared/usage-writer/named-usage-queries.ts';
import { formatUsd } from '../../shared/core/price-usage.ts';
import { makeTempDataDir, sampleRecord, writeUsageFiles } from '../support/sample-usage-record.ts';

describe('the named queries', () => {
  it('have unique kebab-case names, a description, and read usage_records of the days given, each record once', () => {
    const names = namedUsageQueries.map((query) => query.name);
    expect(new Set(names).size).toBe(names.length);
    for (const query of namedUsageQueries) {
      expect(query.name).toMatch(/^[a-z]+(-[a-z]+)*$/);
      expect(query.description.length).toBeGreaterThan(10);
      expect(query.sql).toMatch(/\bFROM usage_records\s+WHERE dt BETWEEN \? AND \?/);
      expect(query.sql).toMatch(/ROW_NUMBER\(\) OVER \(PARTITION BY dt, record_id /);
      expect(query.sql.match(/\?/g), `${query.name} has exactly the two day parameters`).toHaveLength(2);
      expect(query.sql.match(/\bFROM usage_records\b/g), `${query.name} reads the table only through the deduplication`).toHaveLength(1);
    }
  });

  it('avoid syntax only one of DuckDB and Athena (Trino) understands', () => {
    const dialectOnly = [/::/, /GROUP BY ALL/i, /\bQUALIFY\b/i, /\bILIKE\b/i, /FILTER\s*\(/i, /\bTRY_CAST\b/i, /"/, /\bstrftime\b/i];
    for (const query of namedUsageQueries) {
      for (const pattern of dialectOnly) expect(query.sql, `${query.name} uses ${String(pattern)}`).not.toMatch(pattern);
    }
  });

  it('turn nano-USD into USD as an exact decimal, never a floating-point division (Athena prints a DOUBLE as 2.0E-7)', () => {
    for (const query of namedUsageQueries) {
      expect(query.sql, query.name).not.toMatch(/1e9|\/\s*1000000000/i);
      if (query.sql.includes('cost_usd')) expect(query.sql, query.name).toContain('AS DECIMAL(38, 0)) * CAST(0.000000001 AS DECIMAL(10, 9)) AS cost_usd');
    }
  });

  it('are found by name', () => {
    expect(findNamedUsageQuery('cost-by-model')?.name).toBe('cost-by-model');
    expect(findNamedUsageQuery('no-such-query')).toBeUndefined();
  });
});

describe('the named queries run in DuckDB on usage files', () => {
  const march: NamedQueryDays = ['2025-03-01', '2025-03-31'];
  const a = sampleRecord({ projectId: 'acme', keyId: 'key-1', model: 'openai/gpt-4o', createdAt: '2025-03-01T08:00:00Z',
    promptTokens: 100, completionTokens: 20, cachedTokens: 10, costNanos: 1_000_000_000, attribution: { environment: 'production', sessionId: 'session-1', endUser: 'user-1' } });
  const b = sampleRecord({ projectId: 'acme', keyId: 'key-2', model: 'openai/gpt-4o', createdAt: '2025-03-01T09:00:00Z',
    promptTokens: 50, completionTokens: 10, reasoningTokens: 5, costNanos: 250_000_000, fallbackAttempts: 1,
    attribution: { environment: 'staging', sessionId: 'session-2', endUser: 'user-2' } });
  const c = sampleRecord({ projectId: 'acme', keyId: 'key-1', model: 'anthropic/claude-sonnet', provider: 'anthropic',
    createdAt: '2025-03-02T08:00:00Z', promptTokens: 300, completionTokens: 30, costNanos: 3_000_000_001,
    attribution: { environment: 'production', sessionId: 'session-1', endUser: 'user-1' } });
  const d = sampleRecord({ projectId: 'globex', keyId: 'key-9', model: 'openai/gpt-4o', createdAt: '2025-03-02T10:00:00Z',
    promptTokens: 10, completionTokens: 1, costNanos: 7, fallbackAttempts: 2, status: 'failed', httpStatus: 502, attribution: { endUser: 'user-1' } });

  const totals = (requests: number, prompt: number, completion: number, nanos: number) => ({
    requests, prompt_tokens: prompt, completion_tokens: completion, cost_nanos: nanos, cost_usd: formatUsd(nanos),
  });
  const request = (record: typeof a) => ({
    dt: record.createdAt.slice(0, 10), created_at: record.createdAt, record_id: record.recordId, request_id: record.requestId,
    project_id: record.projectId, key_id: record.keyId, model: record.model, status: record.status,
    cost_nanos: record.costNanos, cost_usd: formatUsd(record.costNanos),
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
    'cost-by-session': [
      { session_id: 'session-1', ...totals(2, 400, 50, 4_000_000_001) },
      { session_id: 'session-2', ...totals(1, 50, 10, 250_000_000) },
    ],
    'cost-by-end-user': [
      { project_id: 'acme', end_user: 'user-1', ...totals(2, 400, 50, 4_000_000_001) },
      { project_id: 'acme', end_user: 'user-2', ...totals(1, 50, 10, 250_000_000) },
      { project_id: 'globex', end_user: 'user-1', ...totals(1, 10, 1, 7) },
    ],
    'top-requests-by-cost': [c, a, b, d].map((record) => ({
      ...request(record), prompt_tokens: record.promptTokens, completion_tokens: record.completionTokens,
    })),
    'requests-with-fallbacks': [b, d].map((record) => ({
      ...request(record), provider: record.provider, fallback_attempts: record.fallbackAttempts,
    })),
  };

  // Outside the days asked for: on the day before and the day after the range.
  const february = sampleRecord({ projectId: 'acme', createdAt: '2025-02-28T23:59:59.999Z', costNanos: 1, fallbackAttempts: 1 });
  const april = sampleRecord({ projectId: 'acme', createdAt: '2025-04-01T00:00:00.000Z', costNanos: 1, fallbackAttempts: 1 });

  let dataDir: string;
  let usage: LocalUsage;

  beforeAll(async () => {
    dataDir = await makeTempDataDir();
    await writeUsageFiles(dataDir, [february, a, b, c, d, april]);
    // Redelivered batches whose files had been written: a second copy of a, b, c and d, in other files.
    const copies = [...(await writeUsageFiles(dataDir, [a, c])), ...(await writeUsageFiles(dataDir, [d, b]))];
    expect(copies).toHaveLength(4);
    usage = await openLocalUsage(dataDir);
  });

  afterAll(async () => {
    usage.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  it('has expected numbers for every named query', () => {
    expect(Object.keys(expectedRows).sort()).toEqual(namedUsageQueries.map((query) => query.name).sort());
  });

  it('reads files that hold some records more than once (so the queries below must count each once)', async () => {
    expect(await usage.query('SELECT COUNT(*) AS rows, COUNT(DISTINCT record_id) AS records FROM usage_records')).toEqual([{ rows: 10, records: 6 }]);
  });

  it.each(namedUsageQueries.map((query) => [query.name, query] as const))('%s gives the expected rows, each record once, only of the days given', async (name, query) => {
    expect(await usage.query(query.sql, march)).toEqual(expectedRows[name]);
  });

  it('give cost_usd digit for digit, however small or large: 7 nano-USD, and sums beyond 2^53 nano-USD', async () => {
    const costly = await makeTempDataDir();
    const most = Number.MAX_SAFE_INTEGER;
    await writeUsageFiles(costly, [
      sampleRecord({ model: 'dear', createdAt: '2025-03-01T08:00:00Z', costNanos: most }),
      sampleRecord({ model: 'dear', createdAt: '2025-03-01T09:00:00Z', costNanos: most }),
      sampleRecord({ model: 'cheap', createdAt: '2025-03-01T10:00:00Z', costNanos: 7 }),
    ]);
    const costlyUsage = await openLocalUsage(costly);
    try {
      const rows = await costlyUsage.query(findNamedUsageQuery('cost-by-model')?.sql ?? '', march);
      expect(rows.map(({ model, cost_nanos, cost_usd }) => ({ model, cost_nanos, cost_usd }))).toEqual([
        { model: 'dear', cost_nanos: '18014398509481982', cost_usd: '18014398.509481982' },
        { model: 'cheap', cost_nanos: 7, cost_usd: '0.000000007' },
      ]);
      const [top] = await costlyUsage.query(findNamedUsageQuery('top-requests-by-cost')?.sql ?? '', march);
      expect(top?.cost_usd).toBe('9007199.254740991');
    } finally {
      costlyUsage.close();
      await rm(costly, { recursive: true, force: true });
    }
  });

  it('narrows to the days given, both inclusive', async () => {
    const query = findNamedUsageQuery('cost-by-project-by-day');
    expect(await usage.query(query?.sql ?? '', ['2025-03-02', '2025-03-02'])).toEqual(expectedRows['cost-by-project-by-day']?.slice(1));
    expect(await usage.query(query?.sql ?? '', ['2025-02-28', '2025-03-01'])).toEqual([
      { dt: '2025-02-28', project_id: 'acme', ...totals(1, 100, 20, 1) },
      ...(expectedRows['cost-by-project-by-day']?.slice(0, 1) ?? []),
    ]);
  });
});
