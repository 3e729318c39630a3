import type { AuditActor } from '../core/audit-entry.ts';
import { GatewayError, toGatewayError } from '../core/errors.ts';
import { adminCommandSchema, type AdminCommand, type AdminResult } from './admin-command.ts';
import type { AdminServices } from './admin-services.ts';
import { auditEntryFor, listAudit } from './audit-commands.ts';
import { createKey, listKeys, revokeKey, updateKey } from './key-commands.ts';
import { addMcpServer, listMcpServers, removeMcpServer } from './mcp-commands.ts';
import { addMember, listMembers, removeMember, restoreMember } from './member-commands.ts';
import { allowModel, listModels, removeModel } from './model-commands.ts';
import { createProject, getProject, listProjects, updateProject } from './project-commands.ts';
import { listProviders, removeProvider, setProvider } from './provider-commands.ts';
import { listOrgRates, setOrgRate } from './ratecard-commands.ts';
import { ShownAfterChange } from './shown-after-change.ts';

async function execute(services: AdminServices, command: AdminCommand, actor: AuditActor): Promise<unknown> {
  switch (command.command) {
    case 'project.create':
      return createProject(services, command);
    case 'project.get':
      return getProject(services, command.projectId);
    case 'project.list':
      return listProjects(services);
    case 'project.update':
      return updateProject(services, command);
    case 'provider.set':
      return setProvider(services, command);
    case 'provider.list':
      return listProviders(services, command);
    case 'provider.remove':
      return removeProvider(services, command);
    case 'model.allow':
      return allowModel(services, command);
    case 'model.remove':
      return removeModel(services, command);
    case 'model.list':
      return listModels(services, command);
    case 'ratecard.set':
      return setOrgRate(services, command);
    case 'ratecard.list':
      return listOrgRates(services);
    case 'key.create':
      return createKey(services, command);
    case 'key.list':
      return listKeys(services, command);
    case 'key.revoke':
      return revokeKey(services, command);
    case 'key.update':
      return updateKey(services, command, actor);
    case 'mcp.add':
      return addMcpServer(services, command);
    case 'mcp.list':
      return listMcpServers(services, command);
    case 'mcp.remove':
      return removeMcpServer(services, command);
    case 'member.add':
      return addMember(services, command);
    case 'member.list':
      return listMembers(services, command);
    case 'member.remove':
      return removeMember(services, command);
    case 'member.restore':
      return restoreMember(services, command);
    case 'audit.list':
      return listAudit(services, command);
  }
}

/**
 * Validates an admin event and runs it; every failure is answered, never thrown to the invoker. Each change
 * that succeeds is written to the audit trail under `actor`: the admin CLI (ADMIN_CLI_ACTOR) for the admin
 * function, the signed-in member for the console; before its result is read back (ShownAfterChange).
 */
export async function runAdminCommand(services: AdminServices, event: unknown, actor: AuditActor): Promise<AdminResult> {
  const parsed = adminCommandSchema.safeParse(event);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const field = issue?.path.join('.') || 'command';
    return { ok: false, error: { status: 400, code: 'invalid_command', message: `${field}: ${issue?.message ?? 'invalid'}` } };
  }
  let result: unknown;
  try {
    result = await execute(services, parsed.data, actor);
  } catch (thrown) {
    const error = toGatewayError(thrown);
    return { ok: false, error: { status: error.status, code: error.code, message: describeAdminError(error) } };
  }
  try {
    const entry = auditEntryFor(services, parsed.data, result, actor);
    if (entry) await services.audit.append(entry);
  } catch (thrown) {
    return { ok: false, error: { status: 500, code: 'audit_failed', message: `The change was made but could not be written to the audit trail (${describeCause(thrown)}).` } };
  }
  if (!(result instanceof ShownAfterChange)) return { ok: true, result };
  try {
    return { ok: true, result: await result.show() };
  } catch (thrown) {
    const message = `The change was made and written to the audit trail, but reading it back failed (${describeCause(thrown)}).`;
    return { ok: false, error: { status: 500, code: 'change_not_shown', message } };
  }
}

/** Admins may see more than API clients, but still no stack traces: the cause's message at most. */
function describeAdminError(error: GatewayError): string {
  if (error.kind !== 'internal') return error.message;
  return `The admin command failed (${describeCause(error.cause)}).`;
}

function describeCause(thrown: unknown): string {
  return thrown instanceof Error ? `${thrown.name}: ${thrown.message}` : 'unknown cause';
}
