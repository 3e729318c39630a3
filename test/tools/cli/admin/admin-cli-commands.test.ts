import { parse as parseShellWords } from 'shell-quote';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_CLI_COMMANDS } from '../../../../tools/cli/admin/admin-cli-commands.ts';
import { parseAdminCommandLine } from '../../../../tools/cli/admin/parse-admin-command-line.ts';
import { startAdminHarness, type AdminHarness } from '../../../admin/admin-harness.ts';

/** The admin event of a command line, split as a shell would (`$VAR` left as written). */
function eventOf(line: string): Record<string, unknown> {
  const words = parseShellWords(line, (name) => `$${name}`).map((word) => (typeof word === 'string' ? word : ''));
  const parsed = parseAdminCommandLine(words);
  if (parsed.kind !== 'command') throw new Error(`"${line}" did not parse: ${parsed.kind === 'usage-error' ? parsed.text : parsed.kind}`);
  return parsed.event;
}

let admin: AdminHarness;
beforeAll(async () => {
  admin = await startAdminHarness();
});
afterAll(async () => {
  await admin?.close();
});

describe('the examples of the admin CLI commands', () => {
  it('of the member group all succeed, run in the order the reference shows them', async () => {
    await admin.ok(eventOf('project create acme'));
    const examples = ADMIN_CLI_COMMANDS.filter((command) => command.group === 'member').flatMap((command) => command.examples);
    for (const example of examples) {
      const answer = await admin.run(eventOf(example));
      expect(answer.ok ? 'ok' : `${answer.error.code}: ${answer.error.message}`, example).toBe('ok');
    }
  });
});
