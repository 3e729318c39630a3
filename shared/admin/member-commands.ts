import { GatewayError } from '../core/errors.ts';
import { describeMembership, type Membership } from '../core/membership.ts';
import type { Project } from '../core/project-config.ts';
import type { AdminCommand } from './admin-command.ts';
import type { AdminServices } from './admin-services.ts';
import { getProject, requireProject } from './project-commands.ts';
import { showAfterChange } from './shown-after-change.ts';

type Command<Name extends AdminCommand['command']> = Extract<AdminCommand, { command: Name }>;

/** Adds a person to a project or changes their role; a removed member's keys work again. */
export async function addMember(services: AdminServices, command: Command<'member.add'>) {
  const { project } = await requireProject(services, command.projectId);
  const members = await services.memberships.listForProject(command.projectId);
  const existing = members.find((membership) => membership.member === command.member);
  if (existing?.role === 'owner' && command.role !== 'owner') requireAnotherOwner(members, existing);
  const membership: Membership = {
    projectId: command.projectId,
    member: command.member,
    role: command.role,
    addedAt: existing?.addedAt ?? new Date(services.clock.now()).toISOString(),
  };
  await services.memberships.put(membership);
  if (project.removedMembers?.includes(command.member)) await markRemoved(services, project, command.member, false);
  return describeMembership(membership);
}

export async function listMembers(services: AdminServices, command: Command<'member.list'>) {
  const { project } = await requireProject(services, command.projectId);
  const members = await services.memberships.listForProject(command.projectId);
  return {
    members: members.sort((a, b) => a.member.localeCompare(b.member)).map(describeMembership),
    removed_members: project.removedMembers ?? [],
  };
}

/**
 * Removing a member ends their console access and refuses every key issued to them (403) until they are
 * added again or restored; their keys stay. Works for people who only hold keys (`key create --member`).
 * Someone who is neither is refused (404): a mistyped name must not report success while the person meant
 * keeps their access.
 */
export async function removeMember(services: AdminServices, command: Command<'member.remove'>) {
  const { project } = await requireProject(services, command.projectId);
  const members = await services.memberships.listForProject(command.projectId);
  const existing = members.find((membership) => membership.member === command.member);
  const alreadyRemoved = project.removedMembers?.includes(command.member) === true;
  if (!existing && !alreadyRemoved && !(await holdsAKey(services, command.projectId, command.member))) {
    throw new GatewayError('not_found', `"${command.member}" is neither a member of "${command.projectId}" nor holds one of its keys: check the name ("member list ${command.projectId}" shows them).`, {
      code: 'member_not_found',
    });
  }
  if (existing?.role === 'owner') requireAnotherOwner(members, existing);
  if (existing) await services.memberships.remove(command.projectId, command.member);
  await markRemoved(services, project, command.member, true);
  return showAfterChange(() => getProject(services, command.projectId));
}

async function holdsAKey(services: AdminServices, projectId: string, member: string): Promise<boolean> {
  return (await services.keys.listForProject(projectId)).some((key) => key.member === member);
}

/** Lets a removed member's keys work again, without giving console access back (that is `member add`). */
export async function restoreMember(services: AdminServices, command: Command<'member.restore'>) {
  const { project } = await requireProject(services, command.projectId);
  await markRemoved(services, project, command.member, false);
  return showAfterChange(() => getProject(services, command.projectId));
}

/** The projects a person belongs to, with their names and the person's role: the console's first page. */
export async function projectsOfMember(services: AdminServices, member: string) {
  const memberships = await services.memberships.listForMember(member);
  const projects = await Promise.all(
    memberships.map(async (membership) => {
      const config = await services.projects.loadProjectConfig(membership.projectId);
      return config ? { id: membership.projectId, name: config.project.name, role: membership.role } : undefined;
    }),
  );
  return projects.filter((project) => project !== undefined).sort((a, b) => a.id.localeCompare(b.id));
}

/** A project that has owners keeps at least one: otherwise nobody could manage it in the console. */
function requireAnotherOwner(members: Membership[], leaving: Membership): void {
  if (!members.some((membership) => membership.role === 'owner' && membership.member !== leaving.member)) {
    throw new GatewayError('invalid_request', `"${leaving.member}" is the last owner of "${leaving.projectId}": add another owner first.`, {
      code: 'last_owner',
      status: 409,
    });
  }
}

async function markRemoved(services: AdminServices, project: Project, member: string, removed: boolean): Promise<void> {
  const others = (project.removedMembers ?? []).filter((name) => name !== member);
  const removedMembers = removed ? [...others, member] : others;
  const { removedMembers: _previous, ...rest } = project;
  const updated: Project = {
    ...rest,
    ...(removedMembers.length > 0 ? { removedMembers } : {}),
    updatedAt: new Date(services.clock.now()).toISOString(),
  };
  await services.projects.putProject(updated, { mustNotExist: false });
  services.caches.projects.invalidate(project.projectId);
}
