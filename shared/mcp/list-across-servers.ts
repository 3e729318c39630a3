import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { ErrorCode } from '@modelcontextprotocol/sdk/types.js';
import type { McpServerConfig } from '../core/mcp-server-config.ts';
import { decodeAggregateCursor, encodeAggregateCursor, positionOf } from './aggregate-cursor.ts';
import type { BridgeContext } from './bridge-context.ts';
import { BridgeRpcError, type UpstreamFailure } from './upstream-failure.ts';

/** Where a partial list names the servers that did not answer (a client may show or ignore it). */
export const UNAVAILABLE_SERVERS_META = 'model-gateway/unavailable-servers';

export interface ListSpec<Item> {
  /** The server capability the method needs; a server without it has nothing to list. */
  capability: 'tools' | 'prompts' | 'resources';
  /** One page of one server: its items and its own next cursor. */
  fetchPage(client: Client, cursor: string | undefined): Promise<{ items: Item[]; nextCursor?: string | undefined }>;
  /** The item as the client sees it (namespaced), or undefined when the key may not see it. */
  present(server: string, item: Item): Item | undefined;
}

export interface AggregatedPage<Item> {
  items: Item[];
  nextCursor?: string;
  _meta?: Record<string, unknown>;
}

/**
 * One page of a list across the servers a key may reach, asked of them all at once: the first page
 * asks every server for its first page; the cursor then carries each server's own position, so the next
 * page asks only the servers that have more. A server that fails or times out is left out and named in
 * `_meta`; only when every server asked failed is the answer an error (naming them).
 */
export async function listAcrossServers<Item>(context: BridgeContext, cursor: string | undefined, spec: ListSpec<Item>): Promise<AggregatedPage<Item>> {
  const positions = cursor === undefined ? undefined : decodeAggregateCursor(cursor);
  if (cursor !== undefined && positions === undefined) throw new BridgeRpcError(ErrorCode.InvalidParams, 'Invalid cursor: pass back a nextCursor this endpoint gave.');
  const asked: Array<{ server: McpServerConfig; cursor: string | undefined }> = [...context.servers.values()]
    .filter((server) => positions === undefined || positionOf(positions, server.name) !== undefined)
    .sort((a, b) => a.name.localeCompare(b.name))
    .map((server) => ({ server, cursor: positions === undefined ? undefined : positionOf(positions, server.name) }));

  const pages = await Promise.all(
    asked.map(({ server, cursor: serverCursor }) =>
      context.pool.run(server, async (client): Promise<{ items: Item[]; nextCursor?: string | undefined }> =>
        client.getServerCapabilities()?.[spec.capability] ? spec.fetchPage(client, serverCursor) : { items: [] },
      ),
    ),
  );
  const items: Item[] = [];
  const next: Record<string, string> = {};
  const failures: UpstreamFailure[] = [];
  pages.forEach((page, index) => {
    const server = asked[index]?.server.name ?? '';
    if (!page.ok) return void failures.push(page.failure);
    for (const item of page.value.items) {
      const shown = spec.present(server, item);
      if (shown !== undefined) items.push(shown);
    }
    if (page.value.nextCursor) next[server] = page.value.nextCursor;
  });
  if (asked.length > 0 && failures.length === asked.length) {
    // Set apart: a message may end in a host name ("… ENOTFOUND mcp.example.com; The MCP server …").
    const named = failures.map((failure) => failure.message.replace(/\.$/, '')).join('; ');
    throw new BridgeRpcError(ErrorCode.InternalError, named, {
      servers: failures.map(({ server, kind }) => ({ server, reason: kind })),
    });
  }
  const nextCursor = encodeAggregateCursor(next);
  return {
    items,
    ...(nextCursor ? { nextCursor } : {}),
    ...(failures.length > 0 ? { _meta: { [UNAVAILABLE_SERVERS_META]: failures.map(({ server, kind, message }) => ({ server, reason: kind, message })) } } : {}),
  };
}
