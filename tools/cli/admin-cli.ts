import '../check-node-version.js';
import type { AdminResult } from '../../shared/admin/admin-command.ts';
import { chooseAdminInvoker } from './admin-invoker.ts';
import { ADMIN_USAGE, parseAdminArgs, UsageError } from './parse-admin-args.ts';

/** `npm run --silent admin -- …`: one JSON document on stdout, or an error on stderr and exit code 1 (2 for usage). */
async function main(argv: string[]): Promise<number> {
  if (argv.length === 0 || argv.includes('--help') || argv.includes('-h')) {
    console.log(ADMIN_USAGE);
    return argv.length === 0 ? 2 : 0;
  }
  let event: Record<string, unknown>;
  try {
    event = parseAdminArgs(argv);
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    console.error(`error: ${error.message}\n\n${ADMIN_USAGE}`);
    return 2;
  }
  const invoker = await chooseAdminInvoker(process.env);
  try {
    const answer = (await invoker.invoke(event)) as AdminResult;
    if (!answer.ok) {
      console.error(`error: ${answer.error.message} (${answer.error.code})`);
      return 1;
    }
    console.log(JSON.stringify(answer.result, null, 2));
    return 0;
  } finally {
    await invoker.close();
  }
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(`error: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  },
);
