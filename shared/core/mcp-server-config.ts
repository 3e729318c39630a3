import * as z from 'zod';
import { mcpServerNameSchema } from './mcp-names.ts';

/**
 * An upstream MCP server of a project, as the projects table stores it (item `mcp#<name>`). The values of
 * its headers live in the secret store only; the item keeps their names, so listings can say which
 * headers are sent without showing one.
 */
export const mcpServerConfigSchema = z.object({
  name: mcpServerNameSchema,
  /** Its Streamable HTTP endpoint, validated like a provider base URL. */
  url: z.string(),
  headerNames: z.array(z.string()),
  updatedAt: z.string(),
});
export type McpServerConfig = z.infer<typeof mcpServerConfigSchema>;

/** HTTP header names (RFC 9110 tokens); values are sent as given. */
export const headerNameSchema = z.string().regex(/^[!#$%&'*+.^_`|~0-9A-Za-z-]{1,128}$/, 'header names are HTTP tokens such as Authorization or X-Api-Key');
