import '../check-node-version.js';
import type { AdminResult } from '../../shared/admin/admin-command.ts';
import { chooseAdminInvoker } from './admin-invoker.ts';
import { formatAdminAnswer, formatAdminError } from './admin/format-admin-answer.ts';
import { parseAdminCommandLine } from './admin/parse-admin-command-line.ts';

/**
 * `npm run --silent admin -- …`: the answer on stdout (JSON, or tables with --output table); errors on
 * stderr; exit code 0, 1 (refused or failed) or 2 (wrong command line), as `--help` documents.
 */
async function main(argv: string[]): Promise<number> {
  const line = parseAdminCommandLine(argv);
  if (line.kind === 'help') {
    process.stdout.write(line.text);
    return 0;
  }
  if (line.kind === 'usage-error') {
    process.stderr.write(line.text);
    return 2;
  }
  const invoker = await chooseAdminInvoker(process.env, { report: (line) => console.error(line) });
  if (invoker.note) console.error(invoker.note);
  try {
    const answer = (await invoker.invoke(line.event)) as AdminResult;
    if (!answer.ok) {
      console.error(formatAdminError(answer.error.message, answer.error.code));
      return 1;
    }
    console.log(formatAdminAnswer(answer.result, line.output));
    return 0;
  } finally {
    await invoker.close();
  }
}

/** Exits once stdout has taken everything (a pipe may still hold a long answer), without waiting for stray timers of the store. */
function exitAfterOutput(code: number): void {
  process.stdout.write('', () => process.exit(code));
}

main(process.argv.slice(2)).then(exitAfterOutput, (error: unknown) => {
  console.error(formatAdminError(error instanceof Error ? error.message : String(error)));
  exitAfterOutput(1);
});
