import { parseArgs } from 'node:util';
import { z } from 'zod';
import type { UsageReportFilter } from './local-usage-query.ts';
import { findNamedUsageQuery, type NamedUsageQuery } from '../../shared/usage-writer/usage-table.ts';
import { UsageError } from './usage-error.ts';

export const USAGE_CLI_USAGE = `Usage: npm run --silent usage -- <command>

  query "<SQL>"       run SQL on the view usage_records; prints the rows as a JSON array
  queries             list the named queries (name and description) as JSON
  run <name>          run a named query; prints the rows as a JSON array
  report [--project P] [--from YYYY-MM-DD] [--to YYYY-MM-DD]
                      requests, tokens and cost per day, project and model, with a total

Reads the usage files under $GATEWAY_DATA_DIR/usage/ (default ./.gateway). Days are UTC; --from and --to
are inclusive. The same SQL runs in Athena on the table model_gateway.usage_records.`;

export type UsageCliCommand =
  | { command: 'help' }
  | { command: 'query'; sql: string }
  | { command: 'queries' }
  | { command: 'run'; query: NamedUsageQuery }
  | { command: 'report'; filter: UsageReportFilter };

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
  if (!dayOption.safeParse(value).success) throw new UsageError(`${flag} takes a day as YYYY-MM-DD, not "${value}"`);
  return value;
}

function parseReport(rest: string[]): UsageCliCommand {
  let values: { project?: string; from?: string; to?: string };
  try {
    ({ values } = parseArgs({
      args: rest,
      options: { project: { type: 'string' }, from: { type: 'string' }, to: { type: 'string' } },
      strict: true,
      allowPositionals: false,
    }));
  } catch (error) {
    throw new UsageError(error instanceof Error ? error.message : String(error));
  }
  const from = parseDay(values.from, '--from');
  const to = parseDay(values.to, '--to');
  if (from !== undefined && to !== undefined && from > to) throw new UsageError(`--from ${from} is after --to ${to}`);
  if (values.project !== undefined && values.project.trim() === '') throw new UsageError('--project takes a project id');
  return { command: 'report', filter: { projectId: values.project, from, to } };
}

/** Turns the command line into a command, or throws UsageError (printed with the usage text, exit code 2). */
export function parseUsageArgs(argv: string[]): UsageCliCommand {
  const [command, ...rest] = argv;
  if (command === '--help' || command === '-h' || command === 'help') return { command: 'help' };
  switch (command) {
    case 'query':
      return { command: 'query', sql: onlyArgument(rest, 'SQL statement') };
    case 'queries':
      if (rest.length > 0) throw new UsageError('queries takes no arguments');
      return { command: 'queries' };
    case 'run': {
      const name = onlyArgument(rest, 'query name');
      const query = findNamedUsageQuery(name);
      if (!query) throw new UsageError(`there is no named query "${name}"; "queries" lists them`);
      return { command: 'run', query };
    }
    case 'report':
      return parseReport(rest);
    case undefined:
      throw new UsageError('no command given');
    default:
      throw new UsageError(`unknown command "${command}"`);
  }
}
