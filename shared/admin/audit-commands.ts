import { describeAuditEntry, ORG_AUDIT_PROJECT, type AuditActor, type AuditEntry } from '../core/audit-entry.ts';
import { randomBase62 } from '../core/project-keys.ts';
import type { AdminCommand } from './admin-command.ts';
import type { AdminServices } from './admin-services.ts';
import { requireProject } from './project-commands.ts';

type Command<Name extends AdminCommand['command']> = Extract<AdminCommand, { command: Name }>;

/**
 * Whether each command changes something (and so leaves an audit entry) or only reads. Every command is
 * listed, so a new one cannot be added without deciding.
 */
const CHANGES: Record<AdminCommand['command'], boolean> = {
  'project.create': true,
  'project.get': false,
  'project.list': false,
  'project.update': true,
  'member.add': true,
  'member.list': false,
  'member.remove': true,
  'member.restore': true,
  'provider.set': true,
  'provider.list': false,
  'provider.remove': true,
  'model.allow': true,
  'model.remove': true,
  'model.list': false,
  'ratecard.set': true,
  'ratecard.list': false,
  'key.create': true,
  'key.update': true,
  'key.list': false,
  'key.revoke': true,
  'mcp.add': true,
  'mcp.list': false,
  'mcp.remove': true,
  'audit.list': false,
};
/** Arguments never copied into the trail: only the fact that they were given. */
const SECRET_ARGUMENTS = new Set(['apiKey']);
/** Arguments of name/value pairs whose values are secrets (an MCP server's headers): the names only. */
const SECRET_VALUED_PAIRS = new Set(['headers']);

function redacted(field: string, value: unknown): unknown {
  if (SECRET_ARGUMENTS.has(field)) return '(set)';
  if (SECRET_VALUED_PAIRS.has(field) && Array.isArray(value)) {
    return value.map((pair: unknown) => (typeof pair === 'object' && pair !== null && 'name' in pair ? { name: pair.name, value: '(set)' } : '(set)'));
  }
  return value;
}

/**
 * The audit entry of a change that succeeded: its command and arguments, secrets (provider keys, MCP
 * header values) replaced by "(set)", and
 * the id of what it created (a new key's id; never the key). Undefined for read-only commands.
 */
export function auditEntryFor(services: AdminServices, command: AdminCommand, result: unknown, actor: AuditActor): AuditEntry | undefined {
  if (!CHANGES[command.command]) return undefined;
  const { command: name, ...args } = command;
  const projectId = 'projectId' in args ? args.projectId : ORG_AUDIT_PROJECT;
  const details: Record<string, unknown> = {};
  for (const [field, value] of Object.entries(args)) {
    if (field === 'projectId') continue;
    details[field] = redacted(field, value);
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
