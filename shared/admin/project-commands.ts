import { GatewayError } from '../core/errors.ts';
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
  const [config, orgRates] = await Promise.all([requireProject(services, projectId), services.projects.loadOrgRateCard()]);
  return describeProject(config, orgRates);
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
  services.caches.projects.invalidate(command.projectId);
  return getProject(services, command.projectId);
}
