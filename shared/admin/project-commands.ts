import { GatewayError } from '../core/errors.ts';
import { parseCidr } from '../core/access-policy.ts';
import { ENDPOINT_GROUPS, isEndpointGroup } from '../core/endpoints.ts';
import { parseUsdToNanos } from '../core/price-usage.ts';
import type { Project, ProjectConfig } from '../core/project-config.ts';
import type { AdminCommand } from './admin-command.ts';
import type { AdminServices } from './admin-services.ts';
import { describeProject } from './describe-project.ts';
import { showAfterChange } from './shown-after-change.ts';
import { withoutUndefined } from '../core/without-undefined.ts';

type Command<Name extends AdminCommand['command']> = Extract<AdminCommand, { command: Name }>;

export async function requireProject(services: AdminServices, projectId: string): Promise<ProjectConfig> {
  const config = await services.projects.loadProjectConfig(projectId);
  if (!config) {
    throw new GatewayError('not_found', `There is no project "${projectId}".`, { code: 'project_not_found' });
  }
  return config;
}

export async function createProject(services: AdminServices, command: Command<'project.create'>) {
  const now = new Date(services.clock.now()).toISOString();
  const project = {
    projectId: command.projectId,
    name: command.name ?? command.projectId,
    plan: 'active' as const,
    usageInjection: false,
    failover: false,
    mcp: false,
    createdAt: now,
    updatedAt: now,
  };
  const created = await services.projects.putProject(project, { mustNotExist: true });
  if (!created) {
    throw new GatewayError('invalid_request', `The project "${command.projectId}" already exists.`, {
      code: 'project_exists',
      status: 409,
    });
  }
  return showAfterChange(() => getProject(services, command.projectId));
}

/** Every project, by id: what it is called and whether its plan is active, not its configuration. */
export async function listProjects(services: AdminServices) {
  const projects = await services.projects.listProjects();
  return {
    projects: projects
      .sort((a, b) => a.projectId.localeCompare(b.projectId))
      .map((project) => ({ id: project.projectId, name: project.name, plan: project.plan, created_at: project.createdAt, updated_at: project.updatedAt })),
  };
}

export async function getProject(services: AdminServices, projectId: string) {
  // The project first: reads still in flight after a refusal would outlive the command (and a closed store).
  const config = await requireProject(services, projectId);
  const [orgRates, totals] = await Promise.all([services.projects.loadOrgRateCard(), services.balances.loadUsageTotals(projectId)]);
  return describeProject(config, orgRates, totals);
}

/** `none` clears a setting; a value sets it; absent leaves it as it is. */
function setting<T>(current: T | undefined, change: T | 'none' | undefined): T | undefined {
  if (change === undefined) return current;
  return change === 'none' ? undefined : change;
}

function updatedAccessPolicy(project: Project, command: Command<'project.update'>): Project['accessPolicy'] {
  const current = project.accessPolicy ?? {};
  for (const cidr of Array.isArray(command.allowedCidrs) ? command.allowedCidrs : []) {
    if (!parseCidr(cidr)) throw new GatewayError('invalid_request', `"${cidr}" is not an IPv4 or IPv6 CIDR block.`, { code: 'invalid_cidr' });
  }
  for (const group of Array.isArray(command.allowedEndpoints) ? command.allowedEndpoints : []) {
    if (!isEndpointGroup(group)) {
      throw new GatewayError('invalid_request', `"${group}" is not an endpoint group; use ${ENDPOINT_GROUPS.join(', ')}.`, { code: 'invalid_endpoint_group' });
    }
  }
  const policy = withoutUndefined({
    allowedCidrs: setting(current.allowedCidrs, command.allowedCidrs),
    allowedEnvironments: setting(current.allowedEnvironments, command.allowedEnvironments),
    allowedEndpoints: setting(current.allowedEndpoints, command.allowedEndpoints),
  });
  return Object.keys(policy).length > 0 ? policy : undefined;
}

export { withoutUndefined };

export async function updateProject(services: AdminServices, command: Command<'project.update'>) {
  const { project } = await requireProject(services, command.projectId);
  // An update that names no setting changes nothing: said, rather than answered as if it had worked.
  const { command: _name, projectId: _id, ...settings } = command;
  if (Object.values(settings).every((value) => value === undefined)) {
    throw new GatewayError('invalid_request', `Nothing to update: give at least one setting to change for the project "${command.projectId}" (see "project update --help").`, { code: 'nothing_to_update' });
  }
  const prepaid = command.balanceUsd !== undefined ? command.balanceUsd !== 'none' : command.creditUsd !== undefined ? true : project.prepaid;
  const updated: Project = withoutUndefined({
    ...project,
    ...(command.name !== undefined ? { name: command.name } : {}),
    ...(command.plan !== undefined ? { plan: command.plan } : {}),
    ...(command.usageInjection !== undefined ? { usageInjection: command.usageInjection } : {}),
    ...(command.failover !== undefined ? { failover: command.failover } : {}),
    ...(command.mcp !== undefined ? { mcp: command.mcp } : {}),
    ...(command.passThrough !== undefined ? { passThrough: command.passThrough } : {}),
    rpm: setting(project.rpm, command.rpm),
    tpm: setting(project.tpm, command.tpm),
    upstreamFirstByteTimeoutMs: setting(project.upstreamFirstByteTimeoutMs, command.firstByteTimeoutMs),
    requestDeadlineMs: setting(project.requestDeadlineMs, command.deadlineMs),
    accessPolicy: updatedAccessPolicy(project, command),
    prepaid,
    updatedAt: new Date(services.clock.now()).toISOString(),
  });
  // The balance first: a project never appears prepaid without the balance it was given.
  if (command.balanceUsd !== undefined) {
    await services.balances.setBalance(command.projectId, command.balanceUsd === 'none' ? undefined : usdToNanos(command.balanceUsd));
  }
  if (command.creditUsd !== undefined) await services.balances.addCredit(command.projectId, usdToNanos(command.creditUsd));
  await services.projects.putProject(updated, { mustNotExist: false });
  services.caches.projects.invalidate(command.projectId);
  return showAfterChange(() => getProject(services, command.projectId));
}

function usdToNanos(amount: string): bigint {
  const nanos = parseUsdToNanos(amount);
  if (nanos === undefined) throw new GatewayError('invalid_request', `"${amount}" is not a USD amount.`, { code: 'invalid_amount' });
  return nanos;
}
