import { describeAuditEntry, ORG_AUDIT_PROJECT, type AuditActor, type AuditEntry } from '../core/audit-entry.ts';
import { randomBase62 } from '../core/project-keys.ts';
import type { AdminCommand } from './admin-command.ts';
import type { AdminServices } from './admin-services.ts';
import { requireProject } from './project-commands.ts';

type Command<Name extends AdminCommand['command']> = Extract<AdminCommand, { command: Name }>;

/** Commands that change nothing, and so leave no audit entry. */
const READ_ONLY_COMMANDS = new Set<AdminCommand['command']>(['project.get', 'member.list', 'ratecard.list', 'key.list', 'audit.list']);
/** Arguments never copied into the trail: only the fact that they were given. */
const SECRET_ARGUMENTS = new Set(['apiKey']);

/**
 * The audit entry of a change that succeeded: its command and arguments, secrets replaced by "(set)", and
 * the id of what it created (a new key's id; never the key). Undefined for read-only commands.
 */
export function auditEntryFor(services: AdminServices, command: AdminCommand, result: unknown, actor: AuditActor): AuditEntry | undefined {
  if (READ_ONLY_COMMANDS.has(command.command)) return undefined;
  const { command: name, ...args } = command;
  const projectId = 'projectId' in args ? args.projectId : ORG_AUDIT_PROJECT;
  const details: Record<string, unknown> = {};
  for (const [field, value] of Object.entries(args)) {
    if (field === 'projectId') continue;
    details[field] = SECRET_ARGUMENTS.has(field) ? '(set)' : value;
  }
  if (name === 'key.create' && typeof result === 'object' && result !== null && 'id' in result) details.keyId = result.id;
  return {
    projectId,
    entryId: randomBase62(12, services.randomBytes),
    at: new Date(services.clock.now()).toISOString(),
    actor,
    command: name,
    details,
  };
}

/** The project's most recent changes, newest first. */
export async function listAudit(services: AdminServices, command: Command<'audit.list'>) {
  await requireProject(services, command.projectId);
  const entries = await services.audit.listRecent(command.projectId, command.limit);
  return { entries: entries.map(describeAuditEntry) };
}
