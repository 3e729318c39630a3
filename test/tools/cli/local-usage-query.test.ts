import { rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type LocalUsage, openLocalUsage, queryLocalUsage, toJsonValue } from '../../../tools/cli/local-usage-query.ts';
import { runCommand } from '../../support/run-command.ts';
import { makeTempDataDir, sampleRecord, writeUsageFiles, writeUsageFilesBeforeEndUser } from '../../support/sample-usage-record.ts';

let dataDir: string;
let usage: LocalUsage | undefined;

beforeEach(async () => {
  dataDir = await makeTempDataDir();
});

afterEach(async () => {
  usage?.close();
  usage = undefined;
  await rm(dataDir, { recursive: true, force: true });
});

async function open(): Promise<LocalUsage> {
  usage = await openLocalUsage(dataDir);
  return usage;
}

describe('local usage queries over the usage files', () => {
  it('sums cost_nanos exactly, where adding the USD amounts as floats would not', async () => {
    await writeUsageFiles(dataDir, [
      sampleRecord({ costNanos: 100_000_001 }),
      sampleRecord({ costNanos: 200_000_002 }),
      sampleRecord({ costNanos: 1 }),
    ]);
    const rows = await queryLocalUsage(dataDir, 'SELECT SUM(cost_nanos) AS cost_nanos, COUNT(*) AS n FROM usage_records');
    expect(rows).toEqual([{ cost_nanos: 300_000_004, n: 3 }]);
  });

  it('returns sums beyond the safe integer range as exact decimal strings', async () => {
    const max = Number.MAX_SAFE_INTEGER;
    await writeUsageFiles(dataDir, [sampleRecord({ costNanos: max }), sampleRecord({ costNanos: max })]);
    const rows = await queryLocalUsage(dataDir, 'SELECT SUM(cost_nanos) AS cost_nanos FROM usage_records');
    expect(rows).toEqual([{ cost_nanos: (2n * BigInt(max)).toString() }]);
  });

  it('exposes the day partition dt as a VARCHAR column taken from the path', async () => {
    await writeUsageFiles(dataDir, [
      sampleRecord({ createdAt: '2025-03-02T23:59:59.999Z' }),
      sampleRecord({ createdAt: '2025-03-01T00:00:00.000Z' }),
    ]);
    const rows = await queryLocalUsage(dataDir, 'SELECT dt, typeof(dt) AS dt_type FROM usage_records ORDER BY dt');
    expect(rows).toEqual([
      { dt: '2025-03-01', dt_type: 'VARCHAR' },
      { dt: '2025-03-02', dt_type: 'VARCHAR' },
    ]);
  });

  it('types columns that are empty in every file from the table schema', async () => {
    await writeUsageFiles(dataDir, [sampleRecord({ errorCode: undefined, attribution: {} })]);
    const rows = await queryLocalUsage(
      dataDir,
      'SELECT typeof(error_code) AS error_code, typeof(environment) AS environment, typeof(cost_nanos) AS cost, typeof(http_status) AS http_status FROM usage_records',
    );
    expect(rows).toEqual([{ error_code: 'VARCHAR', environment: 'VARCHAR', cost: 'BIGINT', http_status: 'INTEGER' }]);
  });

  it('maps the record to the snake_case columns, attribution included', async () => {
    const record = sampleRecord({ attribution: { environment: 'staging', agentId: 'agent-7' }, fallbackAttempts: 2 });
    await writeUsageFiles(dataDir, [record]);
    const [row] = await queryLocalUsage(dataDir, 'SELECT * FROM usage_records');
    expect(row).toMatchObject({
      record_id: record.recordId,
      id: record.requestId,
      project_id: 'acme',
      environment: 'staging',
      agent_id: 'agent-7',
      session_id: null,
      fallback_attempts: 2,
      streamed: false,
      dt: '2025-03-01',
    });
  });

  it('reads the end user the request body named in end_user, and null for records without one', async () => {
    await writeUsageFiles(dataDir, [
      sampleRecord({ attribution: { endUser: 'user-123' }, costNanos: 100 }),
      sampleRecord({ attribution: { endUser: 'user-123' }, costNanos: 20 }),
      sampleRecord({ attribution: {}, costNanos: 3 }),
    ]);
    const rows = await queryLocalUsage(dataDir, 'SELECT end_user, SUM(cost_nanos) AS nanos FROM usage_records GROUP BY end_user ORDER BY end_user NULLS LAST');
    expect(rows).toEqual([{ end_user: 'user-123', nanos: 120 }, { end_user: null, nanos: 3 }]);
  });

  it('reads files written before end_user existed, alone or beside newer ones, with end_user null there', async () => {
    const earlier = sampleRecord({ createdAt: '2025-03-01T08:00:00.000Z', attribution: { environment: 'production' } });
    await writeUsageFilesBeforeEndUser(dataDir, [earlier]);
    expect(await queryLocalUsage(dataDir, 'SELECT record_id, environment, end_user, typeof(end_user) AS type FROM usage_records'))
      .toEqual([{ record_id: earlier.recordId, environment: 'production', end_user: null, type: 'VARCHAR' }]);

    const later = sampleRecord({ createdAt: '2025-03-01T09:00:00.000Z', attribution: { endUser: 'user-123' } });
    await writeUsageFiles(dataDir, [later]);
    expect(await queryLocalUsage(dataDir, 'SELECT record_id, end_user FROM usage_records ORDER BY created_at'))
      .toEqual([{ record_id: earlier.recordId, end_user: null }, { record_id: later.recordId, end_user: 'user-123' }]);
  });

  it('reads the one-hour cache writes in tokens_cache_write_1h, and null in files written before the column', async () => {
    await writeUsageFilesBeforeEndUser(dataDir, [sampleRecord({ createdAt: '2025-03-01T08:00:00.000Z', cacheWriteTokens: 30 })]);
    await writeUsageFiles(dataDir, [sampleRecord({ createdAt: '2025-03-01T09:00:00.000Z', cacheWriteTokens: 3_000, cacheWrite1hTokens: 2_000 })]);
    expect(await queryLocalUsage(dataDir, 'SELECT tokens_cache_write, tokens_cache_write_1h FROM usage_records ORDER BY created_at')).toEqual([
      { tokens_cache_write: 30, tokens_cache_write_1h: null },
      { tokens_cache_write: 3_000, tokens_cache_write_1h: 2_000 },
    ]);
  });

  it('reads the bytes of bridged tool calls, and null for records without them', async () => {
    await writeUsageFiles(dataDir, [
      sampleRecord({ endpoint: 'mcp.tools_call', model: 'mcp/docs/search', provider: 'mcp', requestBytes: 48, responseBytes: 2_048 }),
      sampleRecord({ endpoint: 'chat.completions' }),
    ]);
    const rows = await queryLocalUsage(dataDir, 'SELECT endpoint, model, request_bytes, response_bytes FROM usage_records ORDER BY endpoint');
    expect(rows).toEqual([
      { endpoint: 'chat.completions', model: 'openai/gpt-4o-mini', request_bytes: null, response_bytes: null },
      { endpoint: 'mcp.tools_call', model: 'mcp/docs/search', request_bytes: 48, response_bytes: 2_048 },
    ]);
  });

  it('reads a batch delivered again as one file: its key and bytes are the same', async () => {
    const records = [sampleRecord(), sampleRecord()];
    await writeUsageFiles(dataDir, records);
    await writeUsageFiles(dataDir, [...records].reverse());
    expect(await queryLocalUsage(dataDir, 'SELECT COUNT(*) AS n FROM usage_records')).toEqual([{ n: 2 }]);
  });

  it('reads the editor route’s compression savings per conversation, and null for records without them', async () => {
    await writeUsageFiles(dataDir, [
      sampleRecord({ endpoint: 'editor.chat_completions', compressionSavedTokens: 1_200, costNanos: 2_000, attribution: { sessionId: 'conversation-1' } }),
      sampleRecord({ endpoint: 'editor.chat_completions', compressionSavedTokens: 800, costNanos: 1_000, attribution: { sessionId: 'conversation-1' } }),
      sampleRecord({ endpoint: 'chat.completions' }),
    ]);
    const rows = await queryLocalUsage(
      dataDir,
      "SELECT session_id, SUM(cost_nanos) AS nanos, SUM(compression_saved_tokens) AS saved FROM usage_records WHERE endpoint = 'editor.chat_completions' GROUP BY 1",
    );
    expect(rows).toEqual([{ session_id: 'conversation-1', nanos: 3_000, saved: 2_000 }]);
    expect(await queryLocalUsage(dataDir, "SELECT compression_saved_tokens FROM usage_records WHERE endpoint = 'chat.completions'")).toEqual([{ compression_saved_tokens: null }]);
  });

  it('reads the units billed beyond tokens in their own columns, and null for records without them', async () => {
    await writeUsageFiles(dataDir, [
      sampleRecord({ endpoint: 'audio.speech', units: { requests: 1, characters: 1_234 } }),
      sampleRecord({ endpoint: 'videos.stored', units: { videoSeconds: 8 } }),
      sampleRecord({ endpoint: 'rerank', units: { requests: 1, searchUnits: 2 } }),
      sampleRecord({ endpoint: 'images.generations', units: { requests: 1, images: 3 } }),
      sampleRecord({ endpoint: 'audio.transcriptions', units: { requests: 1, audioSeconds: 63 } }),
      sampleRecord({ endpoint: 'chat.completions' }),
    ]);
    const rows = await queryLocalUsage(
      dataDir,
      'SELECT endpoint, units_requests, units_images, units_audio_seconds, units_characters, units_search_units, units_video_seconds FROM usage_records ORDER BY endpoint',
    );
    const none = { units_requests: null, units_images: null, units_audio_seconds: null, units_characters: null, units_search_units: null, units_video_seconds: null };
    expect(rows).toEqual([
      { ...none, endpoint: 'audio.speech', units_requests: 1, units_characters: 1_234 },
      { ...none, endpoint: 'audio.transcriptions', units_requests: 1, units_audio_seconds: 63 },
      { ...none, endpoint: 'chat.completions' },
      { ...none, endpoint: 'images.generations', units_requests: 1, units_images: 3 },
      { ...none, endpoint: 'rerank', units_requests: 1, units_search_units: 2 },
      { ...none, endpoint: 'videos.stored', units_video_seconds: 8 },
    ]);
  });

  it('ignores files that are not Parquet usage files: a writer temp file, a legacy JSON file', async () => {
    const [key = ''] = await writeUsageFiles(dataDir, [sampleRecord()]);
    await writeFile(join(dataDir, `${key}.1234.abcd.tmp`), 'PAR1');
    await writeFile(join(dataDir, 'usage', 'dt=2025-03-01', 'rec-legacy.json'), '{"record_id":"rec-legacy"}\n');
    expect(await queryLocalUsage(dataDir, 'SELECT COUNT(*) AS n FROM usage_records')).toEqual([{ n: 1 }]);
  });

  it('answers [] with no usage files yet instead of a "no files found" error', async () => {
    const local = await open();
    expect(local.hasUsageFiles).toBe(false);
    expect(await local.query('SELECT * FROM usage_records')).toEqual([]);
    expect(await local.query('SELECT SUM(cost_nanos) AS s FROM usage_records WHERE dt >= $from', { from: '2025-01-01' }))
      .toEqual([{ s: null }]);
    expect(await local.report({})).toEqual([]);
  });

  it('reports bad SQL with the DuckDB error message', async () => {
    await writeUsageFiles(dataDir, [sampleRecord()]);
    await expect(queryLocalUsage(dataDir, 'SELECT no_such_column FROM usage_records')).rejects.toThrow(/no_such_column/);
  });
});

describe('the usage report', () => {
  beforeEach(async () => {
    await writeUsageFiles(dataDir, [
      sampleRecord({ projectId: 'acme', model: 'openai/gpt-4o', createdAt: '2025-03-01T08:00:00Z', costNanos: 1_000 }),
      sampleRecord({ projectId: 'acme', model: 'openai/gpt-4o', createdAt: '2025-03-01T09:00:00Z', costNanos: 2_000 }),
      sampleRecord({ projectId: 'acme', model: 'anthropic/claude', createdAt: '2025-03-02T08:00:00Z', costNanos: 5 }),
      sampleRecord({ projectId: 'globex', model: 'openai/gpt-4o', createdAt: '2025-03-03T08:00:00Z', costNanos: 7 }),
    ]);
  });

  it('sums requests, tokens and exact cost per day, project and model', async () => {
    const lines = await (await open()).report({});
    expect(lines.map((line) => [line.day, line.projectId, line.model, line.requests, line.costNanos])).toEqual([
      ['2025-03-01', 'acme', 'openai/gpt-4o', 2, 3_000n],
      ['2025-03-02', 'acme', 'anthropic/claude', 1, 5n],
      ['2025-03-03', 'globex', 'openai/gpt-4o', 1, 7n],
    ]);
    expect(lines[0]).toMatchObject({ promptTokens: 200n, completionTokens: 40n, failed: 0 });
  });

  it('counts failed requests, cache reads and writes and web searches apart', async () => {
    await writeUsageFiles(dataDir, [
      sampleRecord({ projectId: 'initech', createdAt: '2025-03-04T08:00:00Z', status: 'failed', cachedTokens: 30, cacheWriteTokens: 20, units: { requests: 1, webSearches: 3 } }),
      sampleRecord({ projectId: 'initech', createdAt: '2025-03-04T09:00:00Z', cachedTokens: 5 }),
    ]);
    const [line] = await (await open()).report({ projectId: 'initech' });
    expect(line).toMatchObject({ requests: 2, failed: 1, cachedTokens: 35n, cacheWriteTokens: 20n, webSearches: 3n });
  });

  it('counts a record found in two usage files once', async () => {
    const record = sampleRecord({ projectId: 'acme', model: 'openai/gpt-4o', createdAt: '2025-03-01T10:00:00Z', costNanos: 500 });
    const [first] = await writeUsageFiles(dataDir, [record]);
    const [second] = await writeUsageFiles(dataDir, [record, sampleRecord({ projectId: 'globex', createdAt: '2025-03-01T11:00:00Z' })]);
    expect(second).not.toBe(first);
    const [line] = await (await open()).report({ projectId: 'acme', to: '2025-03-01' });
    expect([line?.requests, line?.costNanos]).toEqual([3, 3_500n]);
  });

  it('keeps only the chosen project', async () => {
    const lines = await (await open()).report({ projectId: 'globex' });
    expect(lines.map((line) => line.projectId)).toEqual(['globex']);
  });

  it('keeps only the days from --from to --to, both inclusive', async () => {
    const lines = await (await open()).report({ from: '2025-03-02', to: '2025-03-03' });
    expect(lines.map((line) => line.day)).toEqual(['2025-03-02', '2025-03-03']);
  });

  it('combines the project and date filters', async () => {
    const lines = await (await open()).report({ projectId: 'acme', from: '2025-03-02' });
    expect(lines.map((line) => [line.day, line.model])).toEqual([['2025-03-02', 'anthropic/claude']]);
  });
});

describe('the usage CLI’s rows for spreadsheets and scripts', () => {
  const usageCli = (args: string[]) => runCommand(process.execPath, ['tools/cli/usage-cli.ts', ...args], { GATEWAY_DATA_DIR: dataDir });

  beforeEach(async () => {
    await writeUsageFiles(dataDir, [
      sampleRecord({ projectId: 'acme', model: 'openai/gpt-4o', createdAt: '2025-03-01T08:00:00Z', costNanos: 1_500 }),
      sampleRecord({ projectId: 'acme', model: '=HYPERLINK("x")', createdAt: '2025-03-01T09:00:00Z', costNanos: 2_000_000_000 }),
    ]);
  });

  it('prints the report as CSV, one row per day, project and model, with exact costs and no cell a spreadsheet runs', async () => {
    const { code, stdout } = await usageCli(['report', '--format', 'csv']);
    expect(code).toBe(0);
    expect(stdout.split('\r\n')).toEqual([
      'day,project_id,model,requests,failed,prompt_tokens,cached_tokens,cache_write_tokens,completion_tokens,web_searches,cost_nanos,cost_usd',
      `2025-03-01,acme,"'=HYPERLINK(""x"")",1,0,100,0,0,20,0,2000000000,2`,
      '2025-03-01,acme,openai/gpt-4o,1,0,100,0,0,20,0,1500,0.0000015',
      '',
    ]);
  });

  it('prints the report as JSON rows, and a named query’s rows as CSV', async () => {
    const report = await usageCli(['report', '--format', 'json', '--project', 'acme']);
    expect(JSON.parse(report.stdout)).toContainEqual(expect.objectContaining({ day: '2025-03-01', model: 'openai/gpt-4o', requests: 1, cost_nanos: 1500, cost_usd: '0.0000015' }));
    const byModel = await usageCli(['run', 'cost-by-model', '--from', '2025-03-01', '--to', '2025-03-01', '--format', 'csv']);
    expect(byModel.code).toBe(0);
    expect(byModel.stdout.split('\r\n')[0]).toBe('model,requests,prompt_tokens,completion_tokens,cost_nanos,cost_usd,cached_tokens,reasoning_tokens');
  });
});

describe('conversion of DuckDB values to JSON', () => {
  it('turns safe BigInts into numbers and larger ones into strings', () => {
    expect(toJsonValue(42n)).toBe(42);
    expect(toJsonValue(2n ** 60n)).toBe('1152921504606846976');
    expect(toJsonValue([1n, { nested: -(2n ** 60n) }])).toEqual([1, { nested: '-1152921504606846976' }]);
  });

  it('turns dates into ISO strings', () => {
    expect(toJsonValue(new Date('2025-03-01T00:00:00Z'))).toBe('2025-03-01T00:00:00.000Z');
  });
});
