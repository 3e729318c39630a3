import { rm } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DuckDbUsageQuery } from '../../tools/local-host/duckdb-usage-query.ts';
import { exportUsageRows, parseUsageRange, projectUsageSql, summarizeProjectUsage } from '../../shared/console/project-usage.ts';
import { makeTempDataDir, sampleRecord, writeUsageFiles } from '../support/sample-usage-record.ts';

describe('project usage on the usage files (DuckDB, the SQL Athena runs)', () => {
  let dataDir: string;
  let usage: DuckDbUsageQuery;

  beforeAll(async () => {
    dataDir = await makeTempDataDir();
    usage = new DuckDbUsageQuery(dataDir);
    await writeUsageFiles(dataDir, [
      sampleRecord({ projectId: 'acme', model: 'openai/gpt-4o-mini', costNanos: 1_000, createdAt: '2025-03-01T10:00:00.000Z', requestId: 'req-cheap', attribution: { endUser: 'user-123' } }),
      sampleRecord({ projectId: 'acme', model: 'openai/gpt-4o-mini', costNanos: 2_500, createdAt: '2025-03-01T11:00:00.000Z' }),
      sampleRecord({ projectId: 'acme', model: 'anthropic/claude-sonnet-4-5', costNanos: 9_000_000, createdAt: '2025-03-03T09:00:00.000Z', requestId: 'req-dear' }),
      sampleRecord({ projectId: 'acme', model: 'openai/gpt-4o-mini', costNanos: 7, createdAt: '2025-04-01T00:00:00.000Z' }),
      sampleRecord({ projectId: 'globex', model: 'openai/gpt-4o-mini', costNanos: 5_000_000_000, createdAt: '2025-03-02T00:00:00.000Z' }),
    ]);
  });
  afterAll(async () => {
    await rm(dataDir, { recursive: true, force: true });
  });

  it("sums one project's cost by day and by model within the range, exactly", async () => {
    const summary = await summarizeProjectUsage(usage, parseUsageRange('acme', '2025-03-01', '2025-03-31'));

    expect(summary.by_day).toEqual([
      { day: '2025-03-01', requests: 2, prompt_tokens: '200', completion_tokens: '40', cost_nanos: '3500', cost_usd: '0.0000035' },
      { day: '2025-03-03', requests: 1, prompt_tokens: '100', completion_tokens: '20', cost_nanos: '9000000', cost_usd: '0.009' },
    ]);
    expect(summary.by_model.map((row) => [row.model, row.requests, row.cost_nanos])).toEqual([
      ['anthropic/claude-sonnet-4-5', 1, '9000000'],
      ['openai/gpt-4o-mini', 2, '3500'],
    ]);
  });

  it('keeps sums beyond 2^53 nano-USD and tokens exact, by day, by model and in the JSON answer', async () => {
    const bigDir = await makeTempDataDir();
    // Two records of about 5 million USD each: their sum, 10,000,000.000000003 USD, is no JSON number.
    await writeUsageFiles(bigDir, [
      sampleRecord({ projectId: 'acme', model: 'openai/gpt-4o', costNanos: 5_000_000_000_000_001, promptTokens: 5_000_000_000_000_001, createdAt: '2025-03-01T10:00:00.000Z' }),
      sampleRecord({ projectId: 'acme', model: 'openai/gpt-4o', costNanos: 5_000_000_000_000_002, promptTokens: 5_000_000_000_000_002, createdAt: '2025-03-01T11:00:00.000Z' }),
    ]);
    const summary = await summarizeProjectUsage(new DuckDbUsageQuery(bigDir), parseUsageRange('acme', '2025-03-01', '2025-03-01'));

    const exact = { requests: 2, prompt_tokens: '10000000000000003', cost_nanos: '10000000000000003', cost_usd: '10000000.000000003' };
    expect(summary.by_day).toEqual([expect.objectContaining({ day: '2025-03-01', ...exact })]);
    expect(summary.by_model).toEqual([expect.objectContaining({ model: 'openai/gpt-4o', ...exact })]);
    expect(JSON.stringify(summary.by_day)).toContain('"cost_nanos":"10000000000000003"');
    expect(summary.top_requests.map((row) => row.cost_nanos)).toEqual(['5000000000000002', '5000000000000001']);
    await rm(bigDir, { recursive: true, force: true });
  });

  it('lists the most expensive requests first', async () => {
    const summary = await summarizeProjectUsage(usage, parseUsageRange('acme', '2025-03-01', '2025-03-31'));

    expect(summary.top_requests.map((row) => row.request_id)).toEqual(['req-dear', expect.any(String), 'req-cheap']);
    expect(summary.top_requests[0]).toMatchObject({ key_id: 'key-1', model: 'anthropic/claude-sonnet-4-5', status: 'completed', http_status: 200, cost_usd: '0.009' });
  });

  it('exports every column of the usage rows of the range, oldest first, the end user included', async () => {
    const exported = await exportUsageRows(usage, parseUsageRange('acme', '2025-03-01', '2025-03-01'));

    expect(exported.truncated).toBe(false);
    expect(exported.rows).toHaveLength(2);
    expect(exported.columns).toContain('record_id');
    expect(exported.columns.at(-1)).toBe('dt');
    expect(exported.columns).toContain('end_user');
    expect(exported.rows[0]).toMatchObject({ id: 'req-cheap', project_id: 'acme', cost_nanos: 1_000, cost_usd: '0.000001', dt: '2025-03-01', streamed: false, error_code: null, end_user: 'user-123' });
    // Dollars beside nano-dollars, so a spreadsheet sums them as they are.
    expect(exported.columns.indexOf('cost_usd')).toBe(exported.columns.indexOf('cost_nanos') + 1);
    expect(exported.rows[1]).toMatchObject({ end_user: null });
  });

  it('counts a record the usage files hold twice (a redelivered batch, before compaction) once', async () => {
    const twiceDir = await makeTempDataDir();
    const once = sampleRecord({ projectId: 'acme', costNanos: 1_000, createdAt: '2025-03-01T10:00:00.000Z', requestId: 'req-twice' });
    const other = sampleRecord({ projectId: 'acme', costNanos: 2_000, createdAt: '2025-03-01T10:30:00.000Z' });
    await writeUsageFiles(twiceDir, [once, other]);
    await writeUsageFiles(twiceDir, [once]);
    const twice = new DuckDbUsageQuery(twiceDir);
    const range = parseUsageRange('acme', '2025-03-01', '2025-03-01');

    const summary = await summarizeProjectUsage(twice, range);
    expect(summary.by_day).toEqual([expect.objectContaining({ requests: 2, cost_nanos: '3000' })]);
    expect(summary.top_requests.filter((row) => row.request_id === 'req-twice')).toHaveLength(1);
    expect((await exportUsageRows(twice, range)).rows).toHaveLength(2);
    await rm(twiceDir, { recursive: true, force: true });
  });

  it('answers empty lists before any usage file exists', async () => {
    const empty = new DuckDbUsageQuery(await makeTempDataDir());
    const summary = await summarizeProjectUsage(empty, parseUsageRange('acme', '2025-03-01', '2025-03-31'));
    expect(summary).toMatchObject({ by_day: [], by_model: [], top_requests: [] });
  });

  it('filters every query on the day partition and the project', () => {
    for (const sql of Object.values(projectUsageSql)) expect(sql).toContain('dt BETWEEN ? AND ? AND project_id = ?');
  });

  it.each([
    [null, '2025-03-01', '"from" is missing: give a day as YYYY-MM-DD.'],
    ['2025-3-1', '2025-03-01', '"from" (2025-3-1) is not a day as YYYY-MM-DD.'],
    ['2025-02-30', '2025-03-01', '"from" (2025-02-30) is not a day of the calendar.'],
    ['2025-03-01', '2025-02-29', '"to" (2025-02-29) is not a day of the calendar.'],
    ['2025-03-02', '2025-03-01', '"from" (2025-03-02) is after "to" (2025-03-01).'],
    ['2024-01-01', '2025-03-01', 'The range from 2024-01-01 to 2025-03-01 has 426 days; at most 366.'],
  ])('refuses the range %s to %s, naming the fault', (from, to, message) => {
    expect(() => parseUsageRange('acme', from, to)).toThrow(expect.objectContaining({ status: 400, code: 'invalid_range', message }));
  });

  it('takes a range of 366 days, a leap year', () => {
    expect(parseUsageRange('acme', '2024-01-01', '2024-12-31')).toEqual({ projectId: 'acme', from: '2024-01-01', to: '2024-12-31' });
  });
});
