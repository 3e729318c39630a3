import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { StreamableHTTPClientTransport, StreamableHTTPError } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { loadOnFirstUse } from '../core/load-on-first-use.ts';

interface UpstreamClientModule {
  Client: typeof Client;
  StreamableHTTPClientTransport: typeof StreamableHTTPClientTransport;
  StreamableHTTPError: typeof StreamableHTTPError;
}

let loaded: UpstreamClientModule | undefined;

/**
 * The SDK's MCP client and its Streamable HTTP transport (with its OAuth helpers), loaded on the first
 * connection to an upstream server: the tool bridge's cold start and a request that reaches no upstream
 * server (`initialize`, `ping`) do without them (docs/performance.md).
 */
export const loadUpstreamClient = loadOnFirstUse(async (): Promise<UpstreamClientModule> => {
  const [client, transport] = await Promise.all([import('@modelcontextprotocol/sdk/client/index.js'), import('@modelcontextprotocol/sdk/client/streamableHttp.js')]);
  loaded = { Client: client.Client, StreamableHTTPClientTransport: transport.StreamableHTTPClientTransport, StreamableHTTPError: transport.StreamableHTTPError };
  return loaded;
});

/** Whether an error is the client transport's HTTP error (one can only have been thrown once the client was loaded). */
export function isStreamableHttpError(error: unknown): error is StreamableHTTPError {
  return loaded !== undefined && error instanceof loaded.StreamableHTTPError;
}
