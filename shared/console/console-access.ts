import type { AdminServices } from '../admin/admin-services.ts';
import { GatewayError } from '../core/errors.ts';
import type { ProjectRole } from '../core/membership.ts';
import type { ConsoleIdentity } from './console-identity.ts';

/** What a route requires: every signed-in person, a member of the project (owners too), or an owner. */
export type ConsoleAccess = 'signed-in' | 'member' | 'owner';

/**
 * The person's role in the project, when it satisfies `access`. Someone who is not a member gets 403
 * whether or not the project exists, so the console does not reveal other projects' ids.
 */
export async function requireRole(services: AdminServices, identity: ConsoleIdentity, projectId: string, access: 'member' | 'owner'): Promise<ProjectRole> {
  const membership = (await services.memberships.listForMember(identity.member)).find((entry) => entry.projectId === projectId);
  if (!membership) {
    throw new GatewayError('permission', `You are not a member of the project "${projectId}".`, { code: 'not_a_member' });
  }
  if (access === 'owner' && membership.role !== 'owner') {
    throw new GatewayError('permission', 'Only an owner of the project can do this.', { code: 'owner_only' });
  }
  return membership.role;
}
