import type { FetchLike } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { UpstreamFetch } from '../core/ports.ts';

function headerRecord(headers: RequestInit['headers']): Record<string, string> {
  return Object.fromEntries(new Headers(headers).entries());
}

/**
 * The MCP SDK's client transport on the gateway's upstream transport (Node's HTTP client, which follows
 * no redirect, so headers never travel to a host other than the server's). A GET, the optional stream of
 * server-initiated messages, is answered 405 here without a connection: a bridge request is over once
 * its answers are in, so it never has anywhere to deliver such messages.
 */
export function mcpUpstreamFetch(fetch: UpstreamFetch): FetchLike {
  return async (url, init = {}) => {
    if ((init.method ?? 'GET').toUpperCase() === 'GET') return new Response(null, { status: 405, statusText: 'Method Not Allowed' });
    return fetch(url.toString(), { ...init, headers: headerRecord(init.headers) });
  };
}
