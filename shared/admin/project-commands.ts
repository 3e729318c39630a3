import { GatewayError } from '../core/errors.ts';
import { parseUsdToNanos } from '../core/price-usage.ts';
import type { ProjectConfig } from '../core/project-config.ts';
import type { AdminCommand } from './admin-command.ts';
import type { AdminServices } from './admin-services.ts';
import { describeProject } from './describe-project.ts';

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
  return getProject(services, command.projectId);
}

export async function getProject(services: AdminServices, projectId: string) {
  const [config, orgRates, totals] = await Promise.all([
    requireProject(services, projectId),
    services.projects.loadOrgRateCard(),
    services.balances.loadUsageTotals(projectId),
  ]);
  return describeProject(config, orgRates, totals);
}

export async function updateProject(services: AdminServices, command: Command<'project.update'>) {
  const { project } = await requireProject(services, command.projectId);
  const updated = {
    ...project,
    ...(command.name !== undefined ? { name: command.name } : {}),
    ...(command.plan !== undefined ? { plan: command.plan } : {}),
    ...(command.usageInjection !== undefined ? { usageInjection: command.usageInjection } : {}),
    ...(command.failover !== undefined ? { failover: command.failover } : {}),
    ...(command.mcp !== undefined ? { mcp: command.mcp } : {}),
    updatedAt: new Date(services.clock.now()).toISOString(),
  };
  await services.projects.putProject(updated, { mustNotExist: false });
  if (command.balanceUsd !== undefined) {
    await services.balances.setBalance(command.projectId, command.balanceUsd === 'none' ? undefined : usdToNanos(command.balanceUsd));
  }
  if (command.creditUsd !== undefined) await services.balances.addCredit(command.projectId, usdToNanos(command.creditUsd));
  services.caches.projects.invalidate(command.projectId);
  return getProject(services, command.projectId);
}

function usdToNanos(amount: string): number {
  const nanos = parseUsdToNanos(amount);
  if (nanos === undefined) throw new GatewayError('invalid_request', `"${amount}" is not a USD amount.`, { code: 'invalid_amount' });
  return nanos;
}
