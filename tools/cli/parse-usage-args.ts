import { parseArgs } from 'node:util';
import * as z from 'zod';
import type { UsageReportFilter } from './local-usage-query.ts';
import { findNamedUsageQuery, type NamedQueryDays, type NamedUsageQuery } from '../../shared/usage-writer/named-usage-queries.ts';
import { USAGE_FIRST_DAY, USAGE_LAST_DAY } from '../../shared/usage-writer/usage-table.ts';
import { UsageError } from './usage-error.ts';

export const USAGE_CLI_USAGE = `Usage: npm run --silent usage -- <command>

  query "<SQL>" [--from YYYY-MM-DD] [--to YYYY-MM-DD] [--format json|csv]
                      run SQL on the views usage_records (every copy) and deduplicated_usage
                      (each record once); with --from or --to, the SQL's two ? parameters are
                      bound to those days (to start from the named queries' deduplicated_usage);
                      prints the rows as a JSON array (integers beyond 2^53 and decimals,
                      such as cost_usd, as exact decimal strings), or as CSV with --format csv
  queries             list the named queries (name and description) as JSON
  run <name> [--from YYYY-MM-DD] [--to YYYY-MM-DD] [--format json|csv]
                      run a named query over those days (default: the 31 days up to today);
                      prints the rows as a JSON array, or as CSV
  report [--project P] [--from YYYY-MM-DD] [--to YYYY-MM-DD] [--format table|csv|json]
                      requests, tokens and cost per day, project and model: a table with a
                      total, or one row each as CSV (for a spreadsheet) or a JSON array
  compact [--from YYYY-MM-DD] [--to YYYY-MM-DD]
                      merge each day's usage files into one (default: the 15 days up to
                      yesterday; --to defaults to yesterday, or to --from when that is
                      later, e.g. today); prints what it did as JSON

Reads the usage files under $GATEWAY_DATA_DIR/usage/ (default ./.gateway). Days are UTC; --from and --to
are inclusive. The same SQL runs in Athena on the table model_gateway.usage_records. The files may hold
a record more than once until they are compacted: run and report count each record_id once, and so must
your own queries (see docs/decisions/usage-files-and-queries.md).`;

export type UsageCliCommand =
  | { command: 'help' }
  | { command: 'query'; sql: string; days?: NamedQueryDays; format: RowsFormat }
  | { command: 'queries' }
  | { command: 'run'; query: NamedUsageQuery; days: NamedQueryDays; format: RowsFormat }
  | { command: 'report'; filter: UsageReportFilter; format: ReportFormat }
  | { command: 'compact'; from?: string; to?: string };

/** How rows are printed: a JSON array, or CSV with a header line (RFC 4180, for spreadsheets). */
export type RowsFormat = 'json' | 'csv';
/** The report is a table for people unless asked as rows. */
export type ReportFormat = RowsFormat | 'table';

function parseFormat<Format extends string>(value: string | undefined, formats: readonly Format[], fallback: Format): Format {
  if (value === undefined) return fallback;
  if (!(formats as readonly string[]).includes(value)) throw new UsageError(`--format takes ${formats.join(', ')}, not "${value}"`);
  return value as Format;
}

/** `run` without --from covers this many days up to --to (default today, UTC). */
export const DEFAULT_RUN_DAYS = 31;

const dayOption = z.iso.date();

function onlyArgument(rest: string[], what: string): string {
  const [first] = rest;
  if (rest.length !== 1 || first === undefined || first.trim() === '') {
    throw new UsageError(`expected exactly one ${what}${rest.length > 1 ? ' (quote it)' : ''}`);
  }
  return first;
}

function parseDay(value: string | undefined, flag: string): string | undefined {
  if (value === undefined) return undefined;
  if (!dayOption.safeParse(value).success) {
    // Written as a day but none of the calendar's (2026-02-30): said so, as the console says it.
    const why = /^\d{4}-\d{2}-\d{2}$/.test(value) ? 'is not a day of the calendar' : 'takes a day as YYYY-MM-DD';
    throw new UsageError(`${flag} ${why}, not "${value}"`);
  }
  return value;
}

function parseOptions(rest: string[], names: readonly string[]): Record<string, string | undefined>;
function parseOptions(rest: string[], names: readonly string[], allow: { positionals: true }): { values: Record<string, string | undefined>; positionals: string[] };
function parseOptions(rest: string[], names: readonly string[], allow?: { positionals: true }) {
  try {
    const { values, positionals } = parseArgs({
      args: rest,
      options: Object.fromEntries(names.map((name) => [name, { type: 'string' as const }])),
      strict: true,
      allowPositionals: allow?.positionals ?? false,
    });
    return allow ? { values: values as Record<string, string | undefined>, positionals } : (values as Record<string, string | undefined>);
  } catch (error) {
    throw new UsageError(error instanceof Error ? error.message : String(error));
  }
}

function parseDays(values: Record<string, string | undefined>): { from?: string; to?: string } {
  const from = parseDay(values.from, '--from');
  const to = parseDay(values.to, '--to');
  if (from !== undefined && to !== undefined && from > to) throw new UsageError(`--from ${from} is after --to ${to}`);
  return { ...(from === undefined ? {} : { from }), ...(to === undefined ? {} : { to }) };
}

function parseReport(rest: string[]): UsageCliCommand {
  const values = parseOptions(rest, ['project', 'from', 'to', 'format']);
  const { from, to } = parseDays(values);
  if (values.project !== undefined && values.project.trim() === '') throw new UsageError('--project takes a project id');
  return { command: 'report', filter: { projectId: values.project, from, to }, format: parseFormat(values.format, ['table', 'csv', 'json'], 'table') };
}

function parseRun(rest: string[], today: string): UsageCliCommand {
  const [name, ...options] = rest;
  if (name === undefined || name.trim() === '' || name.startsWith('--')) throw new UsageError('expected a query name');
  const query = findNamedUsageQuery(name);
  if (!query) throw new UsageError(`there is no named query "${name}"; "queries" lists them`);
  const values = parseOptions(options, ['from', 'to', 'format']);
  const format = parseFormat(values.format, ['json', 'csv'], 'json');
  const days = parseDays(values);
  const { from, to = today } = days;
  const first = from ?? new Date(Date.parse(to) - (DEFAULT_RUN_DAYS - 1) * 86_400_000).toISOString().slice(0, 10);
  if (first > to) throw new UsageError(`--from ${first} is after ${days.to === undefined ? `today (${to}), the default --to` : `--to ${to}`}`);
  return { command: 'run', query, days: [first, to], format };
}

/** The SQL, and the days its two `?` parameters take when --from or --to is given (the other side open). */
function parseQuery(rest: string[]): UsageCliCommand {
  const { values, positionals } = parseOptions(rest, ['from', 'to', 'format'], { positionals: true });
  const sql = onlyArgument(positionals, 'SQL statement');
  const format = parseFormat(values.format, ['json', 'csv'], 'json');
  const { from, to } = parseDays(values);
  if (from === undefined && to === undefined) return { command: 'query', sql, format };
  // DuckDB's own words for a count that does not match ("Can not bind to parameter number 1") name no flag.
  const parameters = countSqlParameters(sql);
  if (parameters !== 2) throw new UsageError(`with --from or --to, the SQL needs two ? parameters for the first and last day (e.g. WHERE dt BETWEEN ? AND ?); it has ${parameters}`);
  return { command: 'query', sql, days: [from ?? USAGE_FIRST_DAY, to ?? USAGE_LAST_DAY], format };
}

/** The `?` placeholders of a SQL statement, not counting those inside quotes or comments. */
function countSqlParameters(sql: string): number {
  const outsideQuotesAndComments = sql.replace(/'(?:[^']|'')*'|"(?:[^"]|"")*"|--[^\n]*|\/\*[\s\S]*?\*\//g, '');
  return outsideQuotesAndComments.split('?').length - 1;
}

/** Turns the command line into a command, or throws UsageError (printed with the usage text, exit code 2). */
export function parseUsageArgs(argv: string[], today = new Date().toISOString().slice(0, 10)): UsageCliCommand {
  const [command, ...rest] = argv;
  // Help anywhere on the line (`report --help`, as the admin CLI takes it) is help.
  if (argv.some((argument) => argument === '--help' || argument === '-h') || command === 'help') return { command: 'help' };
  switch (command) {
    case 'query':
      return parseQuery(rest);
    case 'queries':
      if (rest.length > 0) throw new UsageError('queries takes no arguments');
      return { command: 'queries' };
    case 'run':
      return parseRun(rest, today);
    case 'report':
      return parseReport(rest);
    case 'compact':
      return { command: 'compact', ...parseDays(parseOptions(rest, ['from', 'to'])) };
    case undefined:
      throw new UsageError('no command given');
    default:
      throw new UsageError(`unknown command "${command}"`);
  }
}
