import { BENCH_USAGE } from '../../../bench/lib/plan.ts';
import { START_USAGE } from '../../local-host/parse-start-command-line.ts';
import { USAGE_CLI_USAGE } from '../parse-usage-args.ts';
import { REPLAY_USAGE } from '../replay-cli.ts';
import { ROTATE_ORIGIN_SECRET_USAGE } from '../rotate-origin-secret.ts';
import { ADMIN_CLI_COMMANDS, ADMIN_CLI_GROUPS, commandSynopsis } from './admin-cli-commands.ts';
import { EXIT_CODES_TEXT } from './build-admin-program.ts';
import { ADMIN_CLI, type CliCommand } from './cli-command.ts';

const WIDTH = 112;

/** A synopsis wrapped for reading: flags continue under the first one. */
function wrapSynopsis(command: CliCommand): string {
  const [head, ...flags] = commandSynopsis(command).split(/ (?=\[?--)/);
  const lines = [`${ADMIN_CLI} ${head ?? ''}`];
  const indent = ' '.repeat(lines[0]?.length ?? 0);
  for (const flag of flags) {
    const last = lines.length - 1;
    if (`${lines[last]} ${flag}`.length <= WIDTH) lines[last] = `${lines[last]} ${flag}`;
    else lines.push(`${indent} ${flag}`);
  }
  return lines.join('\n');
}

/** Every command's synopsis, for the README's CLI section. */
export function renderCliSynopsis(): string {
  return ['```text', ...ADMIN_CLI_COMMANDS.map(wrapSynopsis), '```'].join('\n');
}

function escapeCell(text: string): string {
  return text.replaceAll('|', '\\|');
}

function renderCommand(command: CliCommand): string {
  const parts = [`### ${command.group} ${command.verb}`, '', `${command.summary}.${command.details ? ` ${command.details}` : ''}`, '', '```text', wrapSynopsis(command), '```'];
  if (command.arguments.length > 0 || command.flags.length > 0) {
    parts.push('', '| Argument or flag | Meaning |', '|---|---|');
    for (const argument of command.arguments) parts.push(`| \`<${argument.name}>\` | ${escapeCell(argument.description)} |`);
    for (const flag of command.flags) {
      parts.push(`| \`${flag.name} ${escapeCell(flag.value)}\` | ${escapeCell(flag.description)}${flag.required ? ' (required)' : ''} |`);
    }
  }
  parts.push('', `Prints ${command.prints}.`, '', '```sh', ...command.examples.map((example) => `${ADMIN_CLI} ${example}`), '```');
  return parts.join('\n');
}

/** docs/cli.md: the reference of every command, generated from their definitions and help texts (`npm run docs:cli`). */
export function renderCliReference(): string {
  const groups = Object.entries(ADMIN_CLI_GROUPS).map(([group, description]) =>
    [`## ${group}`, '', `${description}.`, '', ...ADMIN_CLI_COMMANDS.filter((command) => command.group === group).map(renderCommand)].join('\n\n').replace(/\n{3,}/g, '\n\n'),
  );
  return `${[
    '# CLI reference',
    '',
    '<!-- Generated from tools/cli/admin/*-commands.ts and the other commands\' help texts by `npm run docs:cli`. Do not edit: a test fails when it is stale. -->',
    '',
    'Every command prints its help with `-h` or `--help` (exit code 0).',
    '',
    '## npm start',
    '',
    '```text',
    START_USAGE,
    '```',
    '',
    '## Admin CLI',
    '',
    `\`${ADMIN_CLI} <group> <command> [arguments] [flags]\`, or \`${ADMIN_CLI} help [group [command]]\` and \`--help\` after any command.`,
    'It runs against the deployed admin function when `GATEWAY_ADMIN_FUNCTION_NAME` is set, else against the local',
    'gateway running on `GATEWAY_DATA_DIR`, else in-process on the embedded store. While a gateway is still opening or',
    'closing that store, the command waits for it (up to 30 s, saying so on stderr), then goes through it or runs on the store.',
    '',
    '- `-o, --output json|table` (anywhere on the line): JSON by default, one document on stdout; `table` prints',
    '  lists as columns and a single object as field/value rows. Control characters in names (ESC, BEL, DEL, C1,',
    '  bidirectional overrides) are printed escaped (`\\u001b`), in tables, JSON and error lines alike, never raw.',
    '- Errors go to stderr: one line naming the flag or argument as typed, then one hint line.',
    '',
    '```text',
    EXIT_CODES_TEXT,
    '```',
    '',
    ...groups.flatMap((group) => [group, '']),
    '## Usage CLI',
    '',
    '```text',
    USAGE_CLI_USAGE,
    '```',
    '',
    '## Replay CLI',
    '',
    '```text',
    REPLAY_USAGE,
    '```',
    '',
    '## Origin secret rotation',
    '',
    '```text',
    ROTATE_ORIGIN_SECRET_USAGE,
    '```',
    '',
    '## Benchmark',
    '',
    '```text',
    BENCH_USAGE,
    '```',
  ].join('\n')}\n`;
}
