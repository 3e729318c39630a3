import { auditCommands } from './audit-commands.ts';
import type { CliCommand } from './cli-command.ts';
import { keyCommands } from './key-commands.ts';
import { memberCommands } from './member-commands.ts';
import { mcpCommands } from './mcp-commands.ts';
import { modelCommands } from './model-commands.ts';
import { projectCommands } from './project-commands.ts';
import { providerCommands } from './provider-commands.ts';

/** The command groups, in the order help and the reference list them. */
export const ADMIN_CLI_GROUPS: Readonly<Record<string, string>> = {
  project: 'Projects: create, show, list and configure them',
  member: "Project members: console access and roles; refuse or accept again a member's keys",
  provider: 'Upstream providers of a project and their keys',
  model: "A project's model allowlist, prices and limits",
  ratecard: "The organisation's default prices",
  key: 'Project keys (gw.…)',
  mcp: "The tool bridge's upstream MCP servers of a project",
  audit: "A project's audit trail: every change and who made it",
};

/** Every command of the admin CLI. */
export const ADMIN_CLI_COMMANDS: readonly CliCommand[] = [
  ...projectCommands,
  ...memberCommands,
  ...providerCommands,
  ...modelCommands,
  ...keyCommands,
  ...mcpCommands,
  ...auditCommands,
];

/** How a command's usage line reads: `project update <projectId> [--name NAME] …`. */
export function commandSynopsis(command: CliCommand): string {
  const argumentsText = command.arguments.map((argument) => `<${argument.name}>`);
  const flags = command.flags.map((flag) => {
    const text = flag.required ? `${flag.name} ${flag.value}` : `[${flag.name} ${flag.value}]`;
    return flag.repeatable ? `${text}…` : text;
  });
  return [command.group, command.verb, ...argumentsText, ...flags].join(' ');
}
