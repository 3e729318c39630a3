import '../check-node-version.js';
import * as z from 'zod';
import { type LocalUsage, openLocalUsage } from './local-usage-query.ts';
import { FileUsageArchive } from '../../shared/adapters/local/file-usage-archive.ts';
import { compactionDays, compactUsageDays } from '../../shared/usage-writer/compact-usage.ts';
import { NAMED_QUERY_PARAMETERS, namedUsageQueries } from '../../shared/usage-writer/named-usage-queries.ts';
import { formatUsageReport } from './format-usage-report.ts';
import { UsageError } from './usage-error.ts';
import { parseUsageArgs, USAGE_CLI_USAGE, type UsageCliCommand } from './parse-usage-args.ts';
import { runCli } from './run-cli.ts';
import { DEFAULT_DATA_DIR } from '../local-host/host-file.ts';

const environmentSchema = z.object({ GATEWAY_DATA_DIR: z.string().min(1).default(DEFAULT_DATA_DIR) });

async function runOnUsageFiles(usage: LocalUsage, command: Exclude<UsageCliCommand, { command: 'help' | 'queries' | 'compact' }>) {
  switch (command.command) {
    case 'query':
      console.log(JSON.stringify(await usage.query(command.sql, command.days), null, 2));
      return;
    case 'run':
      console.log(JSON.stringify(await usage.query(command.query.sql, command.days), null, 2));
      return;
    case 'report': {
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
