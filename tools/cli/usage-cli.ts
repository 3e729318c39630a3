import '../check-node-version.js';
import * as z from 'zod';
import { type LocalUsage, openLocalUsage, type UsageQueryRow } from './local-usage-query.ts';
import { FileUsageArchive } from '../../shared/adapters/local/file-usage-archive.ts';
import { compactionDays, compactUsageDays } from '../../shared/usage-writer/compact-usage.ts';
import { NAMED_QUERY_PARAMETERS, namedUsageQueries } from '../../shared/usage-writer/named-usage-queries.ts';
import { formatUsageReport, USAGE_REPORT_ROW_COLUMNS, usageReportRows } from './format-usage-report.ts';
import { toCsv } from '../../shared/console/usage-csv.ts';
import { UsageError } from './usage-error.ts';
import { parseUsageArgs, USAGE_CLI_USAGE, type RowsFormat, type UsageCliCommand } from './parse-usage-args.ts';
import { runCli } from './run-cli.ts';
import { DEFAULT_DATA_DIR } from '../local-host/host-file.ts';

const environmentSchema = z.object({ GATEWAY_DATA_DIR: z.string().min(1).default(DEFAULT_DATA_DIR) });

/** Rows as a JSON array, or as CSV (a value that is no scalar, a list or an object, as its JSON). */
function printRows(rows: readonly UsageQueryRow[], format: RowsFormat, knownColumns?: readonly string[]): void {
  if (format === 'json') {
    console.log(JSON.stringify(rows, null, 2));
    return;
  }
  const columns = knownColumns ?? [...new Set(rows.flatMap((row) => Object.keys(row)))];
  const scalar = (value: UsageQueryRow[string]) => (value === null || typeof value !== 'object' ? value : JSON.stringify(value));
  process.stdout.write(toCsv(columns, rows.map((row) => Object.fromEntries(columns.map((column) => [column, scalar(row[column] ?? null)])))));
}

async function runOnUsageFiles(usage: LocalUsage, command: Exclude<UsageCliCommand, { command: 'help' | 'queries' | 'compact' }>) {
  switch (command.command) {
    case 'query':
      printRows(await usage.query(command.sql, command.days), command.format);
      return;
    case 'run':
      printRows(await usage.query(command.query.sql, command.days), command.format);
      return;
    case 'report': {
      if (command.format !== 'table') {
        // Rows for a spreadsheet or a script: none (a header alone, or []) rather than a sentence.
        printRows(usage.hasUsageFiles ? usageReportRows(await usage.report(command.filter)) : [], command.format, USAGE_REPORT_ROW_COLUMNS);
        return;
      }
      if (!usage.hasUsageFiles) {
        console.log('No usage has been recorded yet.');
        return;
      }
      const lines = await usage.report(command.filter);
      console.log(lines.length > 0 ? formatUsageReport(lines) : 'No usage matches the filter.');
      return;
    }
  }
}

/** `npm run --silent usage -- …`: results on stdout; errors on stderr with exit code 1 (2 for a bad command line, with one hint line). */
async function main(argv: string[]): Promise<number> {
  let command: UsageCliCommand;
  try {
    command = parseUsageArgs(argv);
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    console.error(`error: ${error.message}\nRun "npm run --silent usage -- --help" for the commands.`);
    return 2;
  }
  if (command.command === 'help') {
    console.log(USAGE_CLI_USAGE);
    return 0;
  }
  if (command.command === 'queries') {
    console.log(JSON.stringify(namedUsageQueries.map(({ name, description }) => ({ name, description, parameters: NAMED_QUERY_PARAMETERS })), null, 2));
    return 0;
  }
  const { GATEWAY_DATA_DIR: dataDir } = environmentSchema.parse(process.env);
  if (command.command === 'compact') {
    // The same compaction as the scheduled function in AWS, over the local usage files.
    const compacted = await compactUsageDays(new FileUsageArchive(dataDir), compactionDays(command, Date.now()));
    console.log(JSON.stringify({ compacted }, null, 2));
    return 0;
  }
  const usage = await openLocalUsage(dataDir);
  try {
    await runOnUsageFiles(usage, command);
    return 0;
  } finally {
    usage.close();
  }
}

runCli(main);
