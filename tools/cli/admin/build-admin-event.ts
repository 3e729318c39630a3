import { adminCommandSchema } from '../../../shared/admin/admin-command.ts';
import { UsageError } from '../usage-error.ts';
import type { CliCommand } from './cli-command.ts';

/**
 * The admin event of a parsed command line: arguments and flags mapped to their fields and parsed, then
 * checked with the admin function's own schema, so a mistake is reported here, naming the flag or argument
 * the user typed rather than the event's field.
 */
export function buildAdminEvent(
  command: CliCommand,
  argumentValues: readonly string[],
  flagValues: ReadonlyMap<string, string | readonly string[]>,
): Record<string, unknown> {
  const event: Record<string, unknown> = { command: command.event };
  command.arguments.forEach((argument, index) => {
    event[argument.field] = argumentValues[index];
  });
  for (const flag of command.flags) {
    const raw = flagValues.get(flag.name);
    if (typeof raw === 'string') event[flag.field] = flag.repeatable ? [flag.parse(raw, flag.name)] : flag.parse(raw, flag.name);
    else if (raw !== undefined) event[flag.field] = raw.map((value) => flag.parse(value, flag.name));
  }
  const checked = adminCommandSchema.safeParse(event);
  if (!checked.success) {
    const issue = checked.error.issues[0];
    const field = String(issue?.path[0] ?? '');
    throw new UsageError(`${userFacingName(command, field)}: ${issue?.message ?? 'invalid'}`);
  }
  return event;
}

function userFacingName(command: CliCommand, field: string): string {
  const argument = command.arguments.find((candidate) => candidate.field === field);
  if (argument) return `<${argument.name}>`;
  return command.flags.find((flag) => flag.field === field)?.name ?? field;
}
