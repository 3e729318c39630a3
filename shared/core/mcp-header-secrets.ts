import * as z from 'zod';

/**
 * The header values of an upstream MCP server are one secret in the provider-key secret store (same
 * adapters, same grants), named `mcp/<server>`: provider names hold no `/`, so no provider's key can
 * share the name. The value is the headers as a JSON object; nothing else stores, logs or returns it.
 */
export function mcpHeaderSecretName(server: string): string {
  return `mcp/${server}`;
}

const storedHeadersSchema = z.record(z.string(), z.string());

export function serializeMcpHeaders(headers: Readonly<Record<string, string>>): string {
  return JSON.stringify(headers);
}

/** The headers of a stored secret; none when the server has no secret. */
export function parseMcpHeaders(secret: string | undefined): Record<string, string> {
  if (secret === undefined) return {};
  return storedHeadersSchema.parse(JSON.parse(secret));
}
