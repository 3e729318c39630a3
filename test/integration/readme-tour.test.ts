import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AdminResult } from '../../shared/admin/admin-command.ts';
import { parseAdminCommandLine } from '../../tools/cli/admin/parse-admin-command-line.ts';
import { README_FILE } from '../../tools/cli/cli-reference-files.ts';
import { readmeCommands } from '../support/readme-commands.ts';
import { projectRoot, runCommand } from '../support/run-command.ts';
import { startTestGateway, type TestGateway } from '../support/test-gateway.ts';
import { seedDemoProject } from '../../tools/local-host/seed-demo.ts';
import { DEFAULT_LOCAL_CONSOLE_MEMBER } from '../../tools/local-host/console-host.ts';

const TOUR = 'A 5-minute tour';

/** The tour's TypeScript blocks, in order: what a newcomer pastes into one file. */
async function tourCode(): Promise<string> {
  const readme = await readFile(README_FILE, 'utf8');
  const start = readme.indexOf(`## ${TOUR}`);
  const tour = readme.slice(start, readme.indexOf('\n## ', start + 1));
  return [...tour.matchAll(/```ts\n([\s\S]*?)```/g)].map((block) => block[1] ?? '').join('\n');
}

/** What each `console.log(…); // output` of the code says it prints. */
function promisedOutput(code: string): string[] {
  return [...code.matchAll(/console\.log\(.*\); \/\/ (.*)$/gm)].map((match) => match[1] ?? '');
}

describe("the README's tour, offline", () => {
  let gateway: TestGateway;
  beforeAll(async () => {
    gateway = await startTestGateway();
    // Step 1, as npm start does on a first start.
    await seedDemoProject(gateway.host.invokeAdmin, DEFAULT_LOCAL_CONSOLE_MEMBER);
  });
  afterAll(async () => {
    await gateway.close();
  });

  it('works as written: its admin commands, then its client code with the key they created', async () => {
    const commands = (await readmeCommands({ OPENAI_API_KEY: 'sk-tour-not-used-offline' })).filter((command) => command.section === TOUR);
    expect(commands.map((command) => command.args.slice(0, 2).join(' '))).toEqual(expect.arrayContaining(['project create', 'key create']));
    let key: string | undefined;
    for (const command of commands) {
      const parsed = parseAdminCommandLine(command.args);
      if (parsed.kind === 'help') continue;
      if (parsed.kind !== 'command') throw new Error(`${command.line}: ${parsed.text}`);
      const answer = (await gateway.host.invokeAdmin(parsed.event)) as AdminResult;
      if (!answer.ok) throw new Error(`${command.line}: ${answer.error.message}`);
      if (parsed.event.command === 'key.create') key = (answer.result as { key: string }).key;
    }
    expect(key).toMatch(/^gw\./);

    const code = (await tourCode()).replaceAll('http://127.0.0.1:8787', gateway.url);
    const expected = promisedOutput(code);
    expect(expected.length).toBeGreaterThanOrEqual(3);
    const dir = await mkdtemp(join(projectRoot, '.readme-tour-'));
    try {
      await writeFile(join(dir, 'tour.mts'), code);
      const run = await runCommand('npx', ['tsx', join(dir, 'tour.mts')], { GATEWAY_KEY: key ?? '' });
      expect(run.stderr.replace(/^npm warn .*\n/gm, '')).toBe('');
      expect(run.stdout.trimEnd().split('\n')).toEqual(expected);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
