import type { McpServerConfig } from '../core/mcp-server-config.ts';

/** An upstream MCP server as listings show it: the names of its headers, never a value. */
export function describeMcpServer(server: McpServerConfig) {
  return { name: server.name, url: server.url, header_names: server.headerNames, updated_at: server.updatedAt };
}
