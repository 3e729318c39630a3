import { describe, expect, it } from 'vitest';
import { UsageError } from '../../../tools/cli/usage-error.ts';
import { parseUsageArgs } from '../../../tools/cli/parse-usage-args.ts';

function refusal(argv: string[]): string {
  try {
    parseUsageArgs(argv);
  } catch (error) {
    if (error instanceof UsageError) return error.message;
    throw error;
  }
  throw new Error(`expected ${JSON.stringify(argv)} to be refused`);
}

describe('parseUsageArgs', () => {
  it('takes the SQL of query as one argument', () => {
    expect(parseUsageArgs(['query', 'SELECT 1'])).toEqual({ command: 'query', sql: 'SELECT 1', format: 'json' });
    expect(refusal(['query'])).toMatch(/exactly one SQL statement/);
    expect(refusal(['query', 'SELECT', '1'])).toMatch(/quote it/);
  });

  it('binds the SQL\'s two days to --from and --to when either is given, the other side open', () => {
    expect(parseUsageArgs(['query', 'SELECT ?, ?', '--from', '2025-03-01', '--to', '2025-03-31'])).toEqual({ command: 'query', sql: 'SELECT ?, ?', days: ['2025-03-01', '2025-03-31'], format: 'json' });
    expect(parseUsageArgs(['query', '--to', '2025-03-31', 'SELECT ?, ?'])).toEqual({ command: 'query', sql: 'SELECT ?, ?', days: ['2025-01-01', '2025-03-31'], format: 'json' });
    expect(parseUsageArgs(['query', 'SELECT ?, ?', '--from', '2025-03-01'])).toEqual({ command: 'query', sql: 'SELECT ?, ?', days: ['2025-03-01', '9999-12-31'], format: 'json' });
    expect(refusal(['query', 'SELECT 1', '--from', 'March'])).toMatch(/--from takes a day/);
    expect(refusal(['query', 'SELECT 1', '--project', 'acme'])).toMatch(/project/);
  });

  it('refuses --from or --to on SQL without its two day parameters, naming what is needed', () => {
    expect(refusal(['query', 'SELECT 1 AS x', '--from', '2026-11-01'])).toMatch(/two \? parameters .* it has 0/);
    expect(refusal(['query', 'SELECT ? AS x', '--to', '2026-11-01'])).toMatch(/it has 1/);
    // A ? inside a string literal, a quoted name or a comment is not a parameter.
    expect(refusal(['query', "SELECT '?' AS \"why?\" -- or ?\nFROM t WHERE dt = ?", '--from', '2026-11-01'])).toMatch(/it has 1/);
    expect(parseUsageArgs(['query', "SELECT 'it''s ?' AS x FROM t /* ? */ WHERE dt BETWEEN ? AND ?", '--from', '2026-11-01'])).toMatchObject({ days: ['2026-11-01', '9999-12-31'] });
  });

  it('finds the named query to run and refuses unknown names', () => {
    expect(parseUsageArgs(['run', 'cost-by-key'])).toMatchObject({ command: 'run', query: { name: 'cost-by-key' } });
    expect(refusal(['run', 'cost-by-weather'])).toMatch(/no named query "cost-by-weather"/);
    expect(refusal(['run'])).toMatch(/expected a query name/);
    expect(refusal(['run', '--from', '2025-03-01'])).toMatch(/expected a query name/);
  });

  it('runs a named query over the days given, by default the 31 days up to today', () => {
    expect(parseUsageArgs(['run', 'cost-by-key', '--from', '2025-03-01', '--to', '2025-03-31'], '2026-11-23')).toMatchObject({ days: ['2025-03-01', '2025-03-31'] });
    expect(parseUsageArgs(['run', 'cost-by-key'], '2026-11-23')).toMatchObject({ days: ['2026-10-24', '2026-11-23'] });
    expect(parseUsageArgs(['run', 'cost-by-key', '--to', '2025-03-31'], '2026-11-23')).toMatchObject({ days: ['2025-03-01', '2025-03-31'] });
    expect(parseUsageArgs(['run', 'cost-by-key', '--from', '2026-11-01'], '2026-11-23')).toMatchObject({ days: ['2026-11-01', '2026-11-23'] });
    expect(refusal(['run', 'cost-by-key', '--from', '2026-12-01', '--to', '2026-11-01'])).toMatch(/is after --to/);
    // Without --to, the day it is after is today's, named as the default it is.
    expect(() => parseUsageArgs(['run', 'cost-by-key', '--from', '2026-11-26'], '2026-11-25')).toThrow(/--from 2026-11-26 is after today \(2026-11-25\), the default --to/);
    expect(refusal(['run', 'cost-by-key', '--project', 'acme'])).toMatch(/--project/);
  });

  it('compacts the days given, or leaves them to the default window', () => {
    expect(parseUsageArgs(['compact', '--from', '2025-03-01', '--to', '2025-03-31'])).toEqual({ command: 'compact', from: '2025-03-01', to: '2025-03-31' });
    expect(parseUsageArgs(['compact'])).toEqual({ command: 'compact' });
    expect(refusal(['compact', '--from', 'yesterday'])).toMatch(/--from takes a day/);
  });

  it('reads the report filters', () => {
    expect(parseUsageArgs(['report', '--project', 'acme', '--from', '2025-03-01', '--to', '2025-03-31'])).toEqual({
      command: 'report',
      filter: { projectId: 'acme', from: '2025-03-01', to: '2025-03-31' },
      format: 'table',
    });
    expect(parseUsageArgs(['report'])).toEqual({ command: 'report', filter: {}, format: 'table' });
  });

  it('prints the report as CSV or JSON rows, and a query’s rows as CSV, when --format asks; refuses a format it has not', () => {
    expect(parseUsageArgs(['report', '--format', 'csv'])).toMatchObject({ command: 'report', format: 'csv' });
    expect(parseUsageArgs(['report', '--format', 'json'])).toMatchObject({ command: 'report', format: 'json' });
    expect(parseUsageArgs(['run', 'cost-by-key', '--format', 'csv'])).toMatchObject({ command: 'run', format: 'csv' });
    expect(parseUsageArgs(['query', 'SELECT 1', '--format', 'csv'])).toMatchObject({ command: 'query', format: 'csv' });
    expect(refusal(['report', '--format', 'xlsx'])).toMatch(/--format takes table, csv, json, not "xlsx"/);
    expect(refusal(['run', 'cost-by-key', '--format', 'table'])).toMatch(/--format takes json, csv, not "table"/);
  });

  it('refuses days that are not YYYY-MM-DD calendar days, and a range that ends before it starts', () => {
    expect(refusal(['report', '--from', '2025-3-1'])).toMatch(/--from takes a day as YYYY-MM-DD/);
    expect(refusal(['report', '--to', '2025-02-30'])).toMatch(/--to is not a day of the calendar, not "2025-02-30"/);
    expect(refusal(['report', '--from', '2025-03-02', '--to', '2025-03-01'])).toMatch(/is after --to/);
  });

  it('refuses unknown commands and options', () => {
    expect(refusal([])).toMatch(/no command/);
    expect(refusal(['delete'])).toMatch(/unknown command "delete"/);
    expect(refusal(['report', '--model', 'x'])).toMatch(/--model/);
    expect(refusal(['queries', 'extra'])).toMatch(/no arguments/);
  });

  it('recognises a request for help', () => {
    expect(parseUsageArgs(['--help'])).toEqual({ command: 'help' });
    expect(parseUsageArgs(['report', '--help'])).toEqual({ command: 'help' });
    expect(parseUsageArgs(['run', 'cost-by-model', '-h'])).toEqual({ command: 'help' });
  });
});
