import { Command, Option } from 'commander';
import { ADMIN_CLI, type CliCommand } from './cli-command.ts';
import { ADMIN_CLI_COMMANDS, ADMIN_CLI_GROUPS } from './admin-cli-commands.ts';
import { buildAdminEvent } from './build-admin-event.ts';
import { UsageError } from '../usage-error.ts';

export const OUTPUT_FORMATS = ['json', 'table'] as const;
export type OutputFormat = (typeof OUTPUT_FORMATS)[number];

export const EXIT_CODES_TEXT = `Exit codes:
  0  the command succeeded; its answer is on stdout
  1  the gateway refused or failed the command (not found, conflict, invalid value, unreachable); why is on stderr
  2  the command line is wrong (unknown command or flag, missing or malformed value); nothing was done`;

export interface ProgramOutput {
  out: string;
  err: string;
}

/** What the chosen command's action hands over: its event and the output format. */
export type OnCommand = (event: Record<string, unknown>, output: OutputFormat) => void;

/**
 * The admin CLI as a commander program, built from the command definitions. Help goes to `written.out`,
 * errors (one line, then one hint line) to `written.err`; nothing exits the process (exitOverride).
 */
export function buildAdminProgram(written: ProgramOutput, onCommand: OnCommand): Command {
  const program = new Command(ADMIN_CLI)
    .description('Administer the model gateway: projects, providers, models, prices and keys.')
    .configureOutput({ writeOut: (text) => void (written.out += text), writeErr: (text) => void (written.err += text) })
    .exitOverride()
    .configureHelp({ showGlobalOptions: true, sortSubcommands: false })
    .helpCommand(false)
    .showHelpAfterError(`Run "${ADMIN_CLI} --help" for the commands.`)
    .addOption(new Option('-o, --output <format>', 'how to print answers').choices(OUTPUT_FORMATS).default('json'))
    .addHelpText('after', `\n${EXIT_CODES_TEXT}`);

  program
    .command('help')
    .description('Show the help of a command or group, e.g. "help project update"')
    .argument('[command...]', 'a group, or a group and a command')
    .action((words: string[]) => {
      const target = words.reduce<Command | undefined>((parent, word) => parent?.commands.find((command) => command.name() === word), program);
      if (!target) program.error(`error: there is no command "${words.join(' ')}"`, { exitCode: 2, code: 'gateway.unknownHelpTopic' });
      else target.help();
    });

  for (const [group, description] of Object.entries(ADMIN_CLI_GROUPS)) {
    const groupCommand = program.command(group).description(description).helpCommand(true).showHelpAfterError(`Run "${ADMIN_CLI} ${group} --help" for its commands.`);
    for (const definition of ADMIN_CLI_COMMANDS.filter((command) => command.group === group)) {
      addCommand(groupCommand, definition, onCommand);
    }
  }
  return program;
}

function addCommand(group: Command, definition: CliCommand, onCommand: OnCommand): void {
  const command = group
    .command(definition.verb)
    .summary(definition.summary)
    .description(definition.details ? `${definition.summary}.\n\n${definition.details}` : `${definition.summary}.`)
    .showHelpAfterError(`Run "${ADMIN_CLI} ${definition.group} ${definition.verb} --help" for usage and an example.`);
  for (const argument of definition.arguments) command.argument(`<${argument.name}>`, argument.description);
  const options = definition.flags.map((flag) => {
    const option = new Option(`${flag.name} <${flag.value}>`, flag.description);
    // A repeatable flag collects its values (commander keeps only the last one otherwise).
    if (flag.repeatable) option.argParser((value: string, previous: string[] | undefined) => [...(previous ?? []), value]);
    command.addOption(flag.required ? option.makeOptionMandatory() : option);
    return { flag, option };
  });
  command.addHelpText('after', () => `\nPrints ${definition.prints}.\n\nExamples:\n${definition.examples.map((example) => `  ${ADMIN_CLI} ${example}`).join('\n')}`);
  command.action(function (this: Command, ...values: unknown[]) {
    const argumentValues = values.slice(0, definition.arguments.length) as string[];
    const given = this.opts<Record<string, string | string[] | undefined>>();
    const flagValues = new Map<string, string | string[]>();
    for (const { flag, option } of options) {
      const value = given[option.attributeName()];
      if (value !== undefined) flagValues.set(flag.name, value);
    }
    try {
      onCommand(buildAdminEvent(definition, argumentValues, flagValues), this.optsWithGlobals<{ output: OutputFormat }>().output);
    } catch (error) {
      if (!(error instanceof UsageError)) throw error;
      this.error(`error: ${error.message}`, { exitCode: 2, code: 'gateway.usage' });
    }
  });
}
