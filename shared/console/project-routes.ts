import { projectsOfMember } from '../admin/member-commands.ts';
import { consoleJson } from './console-http.ts';
import { pick, type ConsoleRoute } from './console-route.ts';

/** The person and their projects; a project with its models and providers (never a secret); owners' settings. */
export const projectRoutes: ConsoleRoute[] = [
  {
    method: 'GET',
    path: '/me',
    access: 'signed-in',
    async handle({ deps, identity }) {
      const projects = await projectsOfMember(deps.admin, identity.member);
      return consoleJson(200, { member: identity.member, expires_at: new Date(identity.expiresAt).toISOString(), projects });
    },
  },
  {
    method: 'GET',
    path: '/projects/:projectId',
    access: 'member',
    async handle({ params, role, run }) {
      const project = await run<Record<string, unknown>>({ command: 'project.get', projectId: params.projectId });
      return consoleJson(200, { ...project, role });
    },
  },
  {
    method: 'POST',
    path: '/projects/:projectId/models',
    access: 'owner',
    async handle({ params, body, run }) {
      const fields = ['slug', 'alias', 'inputMicrosPer1k', 'outputMicrosPer1k', 'cachedInputMicrosPer1k', 'cacheWriteInputMicrosPer1k', 'cacheWrite1hInputMicrosPer1k'];
      return consoleJson(200, await run({ ...pick(body, fields), command: 'model.allow', projectId: params.projectId }));
    },
  },
  {
    method: 'POST',
    path: '/projects/:projectId/models/remove',
    access: 'owner',
    async handle({ params, body, run }) {
      return consoleJson(200, await run({ ...pick(body, ['slug']), command: 'model.remove', projectId: params.projectId }));
    },
  },
  {
    method: 'PUT',
    path: '/projects/:projectId/providers/:provider',
    access: 'owner',
    async handle({ params, body, run }) {
      const event = { ...pick(body, ['apiKey', 'baseUrl', 'protocol']), command: 'provider.set', projectId: params.projectId, provider: params.provider };
      return consoleJson(200, await run(event));
    },
  },
  {
    method: 'GET',
    path: '/projects/:projectId/members',
    access: 'member',
    async handle({ params, run }) {
      return consoleJson(200, await run({ command: 'member.list', projectId: params.projectId }));
    },
  },
  {
    method: 'POST',
    path: '/projects/:projectId/members',
    access: 'owner',
    async handle({ params, body, run }) {
      return consoleJson(200, await run({ ...pick(body, ['member', 'role']), command: 'member.add', projectId: params.projectId }));
    },
  },
  {
    method: 'POST',
    path: '/projects/:projectId/members/remove',
    access: 'owner',
    async handle({ params, body, run }) {
      await run({ ...pick(body, ['member']), command: 'member.remove', projectId: params.projectId });
      return consoleJson(200, await run({ command: 'member.list', projectId: params.projectId }));
    },
  },
  {
    method: 'GET',
    path: '/projects/:projectId/audit',
    access: 'owner',
    async handle({ params, run }) {
      return consoleJson(200, await run({ command: 'audit.list', projectId: params.projectId, limit: 200 }));
    },
  },
];
