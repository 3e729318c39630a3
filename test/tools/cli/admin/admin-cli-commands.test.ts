import { randomBytes } from 'node:crypto';
import { parse as parseShellWords } from 'shell-quote';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateKeyId } from '../../../../shared/core/project-keys.ts';
import { UNIT_PRICES } from '../../../../shared/core/unit-prices.ts';
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

  it('name keys by ids shaped as key create makes them', () => {
    const made = generateKeyId(randomBytes);
    const keyIdShape = new RegExp(`^key_[0-9A-Za-z]{${made.length - 'key_'.length}}$`);
    const named = ADMIN_CLI_COMMANDS.flatMap((command) => command.examples).flatMap((example) => example.match(/\bkey_\w+/g) ?? []);
    expect(named.length).toBeGreaterThan(0);
    for (const keyId of named) expect(keyId).toMatch(keyIdShape);
  });
});

/** The field names a "Prints" text lists: quoted or bare words inside its braces, an optional one's "?" dropped. */
function printedFields(prints: string): Set<string> {
  const braced = prints.slice(prints.indexOf('{'), prints.lastIndexOf('}') + 1);
  return new Set([...braced.matchAll(/"?([a-z][a-z0-9_]*)"?\??/g)].map((match) => match[1] ?? ''));
}

/** The fields of an answer: its own, and those of the objects in its lists (a key list's keys). */
function answerFields(answer: unknown): string[] {
  if (typeof answer !== 'object' || answer === null) return [];
  return Object.entries(answer).flatMap(([field, value]) => [
    field,
    ...(Array.isArray(value) ? value.flatMap((item: unknown) => (typeof item === 'object' && item !== null && !Array.isArray(item) ? Object.keys(item) : [])) : []),
  ]);
}

describe('what each admin CLI command says it prints', () => {
  const answers = new Map<string, unknown>();
  const unitPriceFlags = UNIT_PRICES.map((price) => `${price.flag} 1`).join(' ');

  beforeAll(async () => {
    const run = async (line: string) => {
      const answer = await admin.ok<unknown>(eventOf(line));
      answers.set(line.split(' ').slice(0, 2).join(' '), answer);
      return answer;
    };
    await run('project create prints');
    await run('project list');
    await run('member add prints alice@example.com --role owner');
    await run('member list prints');
    await run('provider set prints mock');
    await run('provider list prints');
    await run(`ratecard set mock/echo --input-micros-per-1k 150 --output-micros-per-1k 600 --cached-input-micros-per-1k 75 --cache-write-input-micros-per-1k 190 ${unitPriceFlags}`);
    await run('ratecard list');
    await run('model allow prints mock/echo --alias fast --kind chat --description Echo');
    await run('model list prints');
    const { id } = (await run('key create prints --member alice@example.com --rpm 60')) as { id: string };
    await run('key list prints');
    await run(`key update prints ${id} --mcp-servers docs --mcp-tools docs__search`);
    await run(`key revoke prints ${id}`);
    await run('mcp add prints docs --url https://mcp.example.com/mcp --header X-Token=secret');
    await run('mcp list prints');
    await run('audit list prints');
  });

  const listed = ADMIN_CLI_COMMANDS.filter((command) => command.prints.startsWith('{'));

  it.each(listed.map((command) => [`${command.group} ${command.verb}`, command.prints] as const))('names every field %s prints', (name, prints) => {
    expect(answers.has(name), `no answer of ${name} was recorded`).toBe(true);
    const named = printedFields(prints);
    expect(answerFields(answers.get(name)).filter((field) => !named.has(field))).toEqual([]);
  });
});
