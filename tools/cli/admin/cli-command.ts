import type { AdminCommandName } from '../../../shared/admin/admin-command.ts';
import type { FlagValue } from './flag-values.ts';

/** How users run the admin CLI; help, hints and the generated reference all show it. */
export const ADMIN_CLI = 'npm run --silent admin --';

export interface CliArgument {
  /** As help and errors show it: `<projectId>`. */
  name: string;
  description: string;
  /** The admin event's field it fills. */
  field: string;
}

export interface CliFlag {
  name: `--${string}`;
  /** The value's placeholder in help: `N|none`. */
  value: string;
  description: string;
  field: string;
  parse: FlagValue;
  required?: boolean;
  /** May be given several times; the field gets the list of parsed values, in order. */
  repeatable?: true;
}

/**
 * One admin CLI command: the single source of its parsing, its `--help`, its errors and the generated
 * reference (docs/cli.md). It maps to exactly one admin event (shared/admin), which the admin function runs.
 */
export interface CliCommand {
  group: string;
  verb: string;
  event: AdminCommandName;
  /** One line, for lists of commands. */
  summary: string;
  /** More, when the summary does not say everything. */
  details?: string;
  arguments: CliArgument[];
  flags: CliFlag[];
  /** Full command lines after the CLI prefix, each a working example. */
  examples: string[];
  /** What a success prints on stdout. */
  prints: string;
}

export const projectIdArgument: CliArgument = { name: 'projectId', description: 'the project id', field: 'projectId' };
export const modelArgument: CliArgument = {
  name: 'model',
  description: 'the model as <provider>/<model id>, e.g. openai/gpt-4o-mini',
  field: 'slug',
};
