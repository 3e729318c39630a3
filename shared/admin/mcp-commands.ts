import { GatewayError } from '../core/errors.ts';
import { mcpHeaderSecretName, serializeMcpHeaders } from '../core/mcp-header-secrets.ts';
import type { McpServerConfig } from '../core/mcp-server-config.ts';
import { validateUpstreamUrl } from '../core/validate-base-url.ts';
import type { AdminCommand } from './admin-command.ts';
import type { AdminServices } from './admin-services.ts';
import { describeMcpServer } from './describe-mcp-server.ts';
import { requireProject } from './project-commands.ts';
import { showAfterChange } from './shown-after-change.ts';

type Command<Name extends AdminCommand['command']> = Extract<AdminCommand, { command: Name }>;

function forgetCached(services: AdminServices, projectId: string, name: string): void {
  services.caches.projects.invalidate(projectId);
  services.caches.providerKeys.invalidate(`${projectId}/${mcpHeaderSecretName(name)}`);
}

/**
 * Adds an upstream MCP server to a project's tool bridge, or replaces it (URL and headers together).
 * The URL follows the rules of provider base URLs; the header values go to the secret store, first, so
 * the stored server never names headers the store lacks.
 */
export async function addMcpServer(services: AdminServices, command: Command<'mcp.add'>) {
  await requireProject(services, command.projectId);
  const url = validateUpstreamUrl(command.url, services.allowPrivateUpstreams, {
    subject: 'MCP server URLs',
    noun: 'An MCP server URL',
    credentialsInstead: 'use --header',
  });
  const headers = Object.fromEntries((command.headers ?? []).map((header) => [header.name, header.value]));
  if (Object.keys(headers).length !== (command.headers ?? []).length) {
    throw new GatewayError('invalid_request', 'Each header may be given once.', { code: 'duplicate_header', param: 'header' });
  }
  const secretName = mcpHeaderSecretName(command.name);
  if (Object.keys(headers).length > 0) await services.secrets.putApiKey(command.projectId, secretName, serializeMcpHeaders(headers));
  else await services.secrets.deleteApiKey(command.projectId, secretName);
  const server: McpServerConfig = {
    name: command.name,
    url: url.toString(),
    headerNames: Object.keys(headers),
    updatedAt: new Date(services.clock.now()).toISOString(),
  };
  await services.projects.putMcpServer(command.projectId, server);
  forgetCached(services, command.projectId, command.name);
  return describeMcpServer(server);
}

export async function listMcpServers(services: AdminServices, command: Command<'mcp.list'>) {
  const config = await requireProject(services, command.projectId);
  const servers = [...(config.mcpServers?.values() ?? [])].sort((a, b) => a.name.localeCompare(b.name));
  return { mcp_enabled: config.project.mcp, servers: servers.map(describeMcpServer) };
}

/** Removes a server from the tool bridge and deletes its header values. */
export async function removeMcpServer(services: AdminServices, command: Command<'mcp.remove'>) {
  await requireProject(services, command.projectId);
  const removed = await services.projects.removeMcpServer(command.projectId, command.name);
  // Also when the item was already gone: headers left behind by an interrupted removal are deleted now.
  await services.secrets.deleteApiKey(command.projectId, mcpHeaderSecretName(command.name));
  forgetCached(services, command.projectId, command.name);
  if (!removed) {
    throw new GatewayError('not_found', `"${command.name}" is not an MCP server of "${command.projectId}".`, { code: 'mcp_server_not_found' });
  }
  return showAfterChange(() => listMcpServers(services, { command: 'mcp.list', projectId: command.projectId }));
}
