import * as z from 'zod';

/**
 * How the tool bridge names what it aggregates: each upstream MCP server of a project has a short name,
 * and its tools and prompts are shown as `<server>__<name>`, its resources under
 * `mcp-gateway://<server>/<original URI>`. Server names hold no `_`, so the first `__` always ends the
 * server's part, and a URI keeps its original text after the server, so both map back exactly.
 */
export const MCP_NAME_SEPARATOR = '__';
export const MCP_RESOURCE_SCHEME = 'mcp-gateway:';

export const mcpServerNameSchema = z
  .string()
  .regex(/^[a-z0-9](?:[a-z0-9-]{0,30}[a-z0-9])?$/, 'MCP server names are 1-32 characters of a-z, 0-9 and "-", starting and ending with a letter or digit');

/**
 * The name of a server being added. "all" and "none" are what `key update --mcp-servers` reads as every
 * server and no server, so a server of that name could never be named alone there. Only adding refuses
 * them: a server stored under one before stays readable and removable.
 */
export const newMcpServerNameSchema = mcpServerNameSchema.refine(
  (name) => name !== 'all' && name !== 'none',
  '"all" and "none" are not MCP server names: key update --mcp-servers reads them as every server and no server',
);

/** `docs` + `search` → `docs__search`. */
export function namespaceName(server: string, name: string): string {
  return `${server}${MCP_NAME_SEPARATOR}${name}`;
}

/** `docs__search` → docs + search; undefined for a name that no server's could be. */
export function splitNamespacedName(namespaced: string): { server: string; name: string } | undefined {
  const separator = namespaced.indexOf(MCP_NAME_SEPARATOR);
  if (separator <= 0) return undefined;
  const server = namespaced.slice(0, separator);
  const name = namespaced.slice(separator + MCP_NAME_SEPARATOR.length);
  if (name === '' || !mcpServerNameSchema.safeParse(server).success) return undefined;
  return { server, name };
}

/** `file:///a.md` of `docs` → `mcp-gateway://docs/file:///a.md` (URI templates map the same way). */
export function namespaceUri(server: string, uri: string): string {
  return `${MCP_RESOURCE_SCHEME}//${server}/${uri}`;
}

/** The inverse of namespaceUri; undefined for a URI the bridge did not hand out. */
export function splitNamespacedUri(namespaced: string): { server: string; uri: string } | undefined {
  const prefix = `${MCP_RESOURCE_SCHEME}//`;
  if (!namespaced.startsWith(prefix)) return undefined;
  const rest = namespaced.slice(prefix.length);
  const slash = rest.indexOf('/');
  if (slash <= 0) return undefined;
  const server = rest.slice(0, slash);
  const uri = rest.slice(slash + 1);
  if (uri === '' || !mcpServerNameSchema.safeParse(server).success) return undefined;
  return { server, uri };
}
