import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { generateKeyId } from '../shared/core/project-keys.ts';
import { parseAdminCommandLine } from '../tools/cli/admin/parse-admin-command-line.ts';
import { parseUsageArgs } from '../tools/cli/parse-usage-args.ts';
import { readmeCommands } from './support/readme-commands.ts';

const env = { OPENAI_API_KEY: 'sk-readme', ANTHROPIC_API_KEY: 'sk-ant-readme' };

describe('the command lines of README.md', () => {
  it('are all admin commands the CLI accepts', async () => {
    const lines = (await readmeCommands(env)).filter((command) => command.cli === 'admin');
    expect(lines.length).toBeGreaterThanOrEqual(10);
    for (const { args, line } of lines) {
      const parsed = parseAdminCommandLine(args);
      expect(parsed.kind === 'usage-error' ? parsed.text : parsed.kind, line).toMatch(/^(command|help)$/);
    }
  });

  it('are all usage commands the usage CLI accepts', async () => {
    const lines = (await readmeCommands(env)).filter((command) => command.cli === 'usage');
    expect(lines.length).toBeGreaterThanOrEqual(5);
    for (const { args, line } of lines) expect(() => parseUsageArgs(args), line).not.toThrow();
  });

  it('name keys by ids shaped as key create makes them', async () => {
    const made = generateKeyId(randomBytes);
    const keyIdShape = new RegExp(`^key_[0-9A-Za-z]{${made.length - 'key_'.length}}$`);
    const keyIds = (await readmeCommands(env)).flatMap(({ cli, args }) => (cli === 'admin' && args[0] === 'key' && (args[1] === 'update' || args[1] === 'revoke') ? [args[3]] : []));
    expect(keyIds.length).toBeGreaterThan(0);
    for (const keyId of keyIds) expect(keyId).toMatch(keyIdShape);
  });
});
