import { readdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCommand } from '../../support/run-command.ts';
import { DEDUPLICATED_USAGE } from '../../../shared/usage-writer/named-usage-queries.ts';
import { makeTempDataDir, sampleRecord, writeUsageFiles } from '../../support/sample-usage-record.ts';

const usageCli = (dataDir: string, ...args: string[]) =>
  runCommand('npm', ['run', '--silent', 'usage', '--', ...args], { GATEWAY_DATA_DIR: dataDir });

describe('usage CLI', () => {
  let dataDir: string;
  let emptyDataDir: string;

  beforeAll(async () => {
    dataDir = await makeTempDataDir();
    emptyDataDir = await makeTempDataDir();
    await writeUsageFiles(dataDir, [
      sampleRecord({ projectId: 'acme', createdAt: '2025-03-01T08:00:00Z', costNanos: 1_234_567_890 }),
      sampleRecord({ projectId: 'acme', createdAt: '2025-03-01T09:00:00Z', costNanos: 5 }),
      sampleRecord({ projectId: 'globex', createdAt: '2025-03-02T08:00:00Z', costNanos: 10_000_000_000 }),
    ]);
  });

  afterAll(async () => {
    await rm(dataDir, { recursive: true, force: true });
    await rm(emptyDataDir, { recursive: true, force: true });
  });

  it('prints the rows of a query as one JSON array', async () => {
    const result = await usageCli(dataDir, 'query', 'SELECT count(*) AS n FROM usage_records');
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual([{ n: 3 }]);
  });

  it('runs a named query by name over the days given', async () => {
    const result = await usageCli(dataDir, 'run', 'cost-by-project-by-day', '--from', '2025-03-01', '--to', '2025-03-02');
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toMatchObject([
      { dt: '2025-03-01', project_id: 'acme', requests: 2, cost_nanos: 1_234_567_895 },
      { dt: '2025-03-02', project_id: 'globex', requests: 1, cost_nanos: 10_000_000_000 },
    ]);
    const oneDay = await usageCli(dataDir, 'run', 'cost-by-project-by-day', '--from', '2025-03-02', '--to', '2025-03-02');
    expect(JSON.parse(oneDay.stdout)).toMatchObject([{ dt: '2025-03-02', project_id: 'globex' }]);
  });

  it('prints cost_usd as the exact decimal, never in exponent notation', async () => {
    const result = await usageCli(dataDir, 'run', 'top-requests-by-cost', '--from', '2025-03-01', '--to', '2025-03-02');
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout).map((row: { cost_usd: unknown }) => row.cost_usd)).toEqual(['10', '1.23456789', '0.000000005']);
    expect(result.stdout).not.toMatch(/\de-\d/);
  });

  it('prints a report per day, project and model with an exact total in USD', async () => {
    const result = await usageCli(dataDir, 'report', '--project', 'acme');
    expect(result.code).toBe(0);
    // requests, failed, prompt tokens, cached, cache writes, completion tokens, web searches, cost.
    expect(result.stdout).toMatch(/^2025-03-01\s+acme\s+openai\/gpt-4o-mini\s+2\s+0\s+200\s+0\s+0\s+40\s+0\s+1\.234567895$/m);
    expect(result.stdout).toMatch(/^total\s+2\s+0\s+200\s+0\s+0\s+40\s+0\s+1\.234567895$/m);
    expect(result.stdout).not.toContain('globex');
  });

  it('answers [] and "no usage yet" before any usage was recorded', async () => {
    const missing = join(emptyDataDir, 'never-created');
    const query = await usageCli(missing, 'query', 'SELECT * FROM usage_records');
    expect([query.code, JSON.parse(query.stdout)]).toEqual([0, []]);
    const report = await usageCli(missing, 'report');
    expect(report.code).toBe(0);
    expect(report.stdout).toMatch(/No usage has been recorded yet/);
    expect(report.stderr).not.toMatch(/No files found/i);
  });

  it('prints the DuckDB error on stderr and exits 1 for bad SQL', async () => {
    const result = await usageCli(dataDir, 'query', 'SELEC 1');
    expect(result.code).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr).toMatch(/Parser Error: syntax error at or near "SELEC"/);
  });

  it('prints the error and one hint line on stderr and exits 2 for bad arguments', async () => {
    const result = await usageCli(dataDir, 'report', '--from', '1st of March');
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toMatch(/--from takes a day as YYYY-MM-DD/);
    expect(result.stderr).toMatch(/\nRun "npm run --silent usage -- --help" for the commands\.\n$/);
    expect(result.stderr.trimEnd().split('\n')).toHaveLength(2);
  });

  // Last: it adds a record.
  it('compacts the usage files of the days given and answers the same afterwards', async () => {
    const before = await usageCli(dataDir, 'run', 'cost-by-key', '--from', '2025-03-01', '--to', '2025-03-02');
    await writeUsageFiles(dataDir, [sampleRecord({ projectId: 'acme', createdAt: '2025-03-01T10:00:00Z', costNanos: 7 })]);
    const added = await usageCli(dataDir, 'run', 'cost-by-key', '--from', '2025-03-01', '--to', '2025-03-02');

    const result = await usageCli(dataDir, 'compact', '--from', '2025-03-01', '--to', '2025-03-02');

    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toMatchObject({ compacted: [{ day: '2025-03-01', files: 2, records: 3 }] });
    expect(await readdir(join(dataDir, 'usage', 'dt=2025-03-01'))).toEqual([expect.stringMatching(/^compacted-[0-9a-f]{32}\.parquet$/)]);
    expect((await usageCli(dataDir, 'run', 'cost-by-key', '--from', '2025-03-01', '--to', '2025-03-02')).stdout).toBe(added.stdout);
    expect(added.stdout).not.toBe(before.stdout);
  });

  describe('with a record written twice (a redelivered batch)', () => {
    let twiceDir: string;
    beforeAll(async () => {
      twiceDir = await makeTempDataDir();
      const record = sampleRecord({ projectId: 'acme', createdAt: '2025-03-01T08:00:00Z', costNanos: 7 });
      await writeUsageFiles(twiceDir, [record]);
      await writeUsageFiles(twiceDir, [sampleRecord({ projectId: 'acme', createdAt: '2025-03-01T09:00:00Z', costNanos: 3 }), record]);
    });

    it('counts each record once in the deduplicated_usage view, every copy in usage_records', async () => {
      const sql = 'SELECT (SELECT SUM(cost_nanos) FROM deduplicated_usage) AS once, (SELECT SUM(cost_nanos) FROM usage_records) AS copies';
      const result = await usageCli(twiceDir, 'query', sql);
      expect([result.code, JSON.parse(result.stdout)]).toEqual([0, [{ once: 10, copies: 17 }]]);
    });

    it("binds the two days of the named queries' deduplicated_usage to --from and --to", async () => {
      const sql = `WITH ${DEDUPLICATED_USAGE} SELECT COUNT(*) AS requests, SUM(cost_nanos) AS cost_nanos FROM deduplicated_usage`;
      const firstDay = await usageCli(twiceDir, 'query', sql, '--from', '2025-03-01', '--to', '2025-03-01');
      const dayAfter = await usageCli(twiceDir, 'query', sql, '--from', '2025-03-02', '--to', '2025-03-02');
      expect(JSON.parse(dayAfter.stdout)).toEqual([{ requests: 0, cost_nanos: null }]);
      expect([firstDay.code, JSON.parse(firstDay.stdout)]).toEqual([0, [{ requests: 2, cost_nanos: 10 }]]);
      const fromOnly = await usageCli(twiceDir, 'query', '--from', '2025-03-01', sql);
      expect(JSON.parse(fromOnly.stdout)).toEqual([{ requests: 2, cost_nanos: 10 }]);
    });
  });
});
