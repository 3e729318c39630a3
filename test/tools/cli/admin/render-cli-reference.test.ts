import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { ADMIN_CLI_COMMANDS } from '../../../../tools/cli/admin/admin-cli-commands.ts';
import { renderCliReference } from '../../../../tools/cli/admin/render-cli-reference.ts';
import { CLI_REFERENCE_FILE, README_FILE, withCliSynopsis } from '../../../../tools/cli/cli-reference-files.ts';

describe('the generated CLI reference', () => {
  it('is committed as npm run docs:cli writes it (run that after changing a command)', async () => {
    expect(await readFile(CLI_REFERENCE_FILE, 'utf8')).toBe(renderCliReference());
  });

  it("is the README's command list too", async () => {
    const readme = await readFile(README_FILE, 'utf8');
    expect(readme).toBe(withCliSynopsis(readme));
  });

  it('documents every command with every flag, what it prints and an example', () => {
    const reference = renderCliReference();
    for (const command of ADMIN_CLI_COMMANDS) {
      expect(reference).toContain(`### ${command.group} ${command.verb}\n`);
      for (const flag of command.flags) expect(reference).toContain(`| \`${flag.name} `);
      expect(reference).toContain(`Prints ${command.prints}.`);
    }
  });

  it('refuses a README that lost the markers of the generated list', () => {
    expect(() => withCliSynopsis('# README without markers\n')).toThrow(/lacks the markers/);
  });
});
