import { describeActor, type AuditActor } from '../core/audit-entry.ts';
import { GatewayError } from '../core/errors.ts';
import { describeKey } from '../core/key-record.ts';
import { generateKeyId, generateProjectKey, hashProjectKey, projectKeyHint } from '../core/project-keys.ts';
import type { AdminCommand } from './admin-command.ts';
import type { AdminServices } from './admin-services.ts';
import { requireProject } from './project-commands.ts';

type Command<Name extends AdminCommand['command']> = Extract<AdminCommand, { command: Name }>;

/** Creates a project key. The key is in this answer and nowhere else: only its hash is stored. */
export async function createKey(services: AdminServices, command: Command<'key.create'>) {
  await requireProject(services, command.projectId);
  const key = generateProjectKey(services.randomBytes);
  const record = {
    keyHash: hashProjectKey(key),
    keyId: generateKeyId(services.randomBytes),
    projectId: command.projectId,
    name: command.name ?? 'default',
    hint: projectKeyHint(key),
    createdAt: new Date(services.clock.now()).toISOString(),
    ...(command.member !== undefined ? { member: command.member } : {}),
    ...(command.rpm !== undefined ? { rpm: command.rpm } : {}),
  };
  await services.keys.put(record);
  return { ...describeKey(record), key };
}

export async function listKeys(services: AdminServices, command: Command<'key.list'>) {
  await requireProject(services, command.projectId);
  const records = await services.keys.listForProject(command.projectId);
  return { keys: records.sort((a, b) => a.createdAt.localeCompare(b.createdAt)).map(describeKey) };
}

/** Revokes a key: at once in this process, within the key cache's lifetime everywhere else. */
export async function revokeKey(services: AdminServices, command: Command<'key.revoke'>) {
  const revoked = await services.keys.revoke(command.projectId, command.keyId, new Date(services.clock.now()).toISOString());
  if (!revoked) {
    throw new GatewayError('not_found', `The project "${command.projectId}" has no key "${command.keyId}".`, {
      code: 'key_not_found',
    });
  }
  services.caches.keys.invalidate(revoked.keyHash);
  return describeKey(revoked);
}

/**
 * Renames, disables or enables a key, or changes its rate limit or tool-bridge allowlists: at once in this
 * process, within the key cache's lifetime elsewhere. A revoked key is refused (409 key_revoked): revocation
 * is for good, and an answer of success would suggest the key works again. A disabled key remembers who
 * disabled it (`actor`), so the console lets a member enable only a key they disabled themselves.
 */
export async function updateKey(services: AdminServices, command: Command<'key.update'>, actor: AuditActor) {
  const updated = await services.keys.update(command.projectId, command.keyId, {
    ...(command.name !== undefined ? { name: command.name } : {}),
    ...(command.enabled !== undefined ? { disabled: !command.enabled, ...(command.enabled ? {} : { disabledBy: describeActor(actor) }) } : {}),
    ...(command.rpm !== undefined ? { rpm: command.rpm === 'none' ? null : command.rpm } : {}),
    ...(command.mcpServers !== undefined ? { mcpServers: command.mcpServers === 'all' ? null : command.mcpServers } : {}),
    ...(command.mcpTools !== undefined ? { mcpTools: command.mcpTools === 'all' ? null : command.mcpTools } : {}),
  });
  if (!updated) {
    throw new GatewayError('not_found', `The project "${command.projectId}" has no key "${command.keyId}".`, { code: 'key_not_found' });
  }
  if (updated.revokedAt) {
    // The store changed nothing; refused, so no audit entry claims a change that did not happen.
    throw new GatewayError('invalid_request', `The key "${command.keyId}" of the project "${command.projectId}" is revoked; create a new key.`, {
      code: 'key_revoked',
      status: 409,
    });
  }
  services.caches.keys.invalidate(updated.keyHash);
  return describeKey(updated);
}
