import type { KeyRecord } from './key-record.ts';
import { namespaceName } from './mcp-names.ts';

/**
 * What one project key may reach through the tool bridge. A key without lists reaches every server of
 * its project and every tool of them; `mcpServers` narrows the servers (their tools, prompts and
 * resources), `mcpTools` the tools (`<server>__<tool>`); an empty list allows nothing (no server: no MCP
 * access). A tool must pass both. What a key may not reach is neither listed nor callable.
 */
export interface McpAccess {
  allowsServer(server: string): boolean;
  allowsTool(server: string, tool: string): boolean;
}

export function mcpAccessOf(key: Pick<KeyRecord, 'mcpServers' | 'mcpTools'>): McpAccess {
  const servers = key.mcpServers ? new Set(key.mcpServers) : undefined;
  const tools = key.mcpTools ? new Set(key.mcpTools) : undefined;
  const allowsServer = (server: string) => !servers || servers.has(server);
  return {
    allowsServer,
    allowsTool: (server, tool) => allowsServer(server) && (!tools || tools.has(namespaceName(server, tool))),
  };
}
