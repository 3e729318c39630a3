import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';

export interface GatewayMcpClient {
  client: Client;
  /** The project key it presents. */
  key: string;
  /** The gateway's `x-request-id` of each POST, in order: the ids `/v1/generation?id=` looks up. */
  requestIds: string[];
  close(): Promise<void>;
}

/** The MCP SDK's client, connected to the gateway's `/mcp/v1` with a project key, as an MCP host would be. */
export async function connectToGateway(gatewayUrl: string, key: string): Promise<GatewayMcpClient> {
  const requestIds: string[] = [];
  const transport = new StreamableHTTPClientTransport(new URL(`${gatewayUrl}/mcp/v1`), {
    requestInit: { headers: { authorization: `Bearer ${key}` } },
    fetch: async (url, init) => {
      const response = await fetch(url, init);
      const requestId = response.headers.get('x-request-id');
      if (init?.method === 'POST' && requestId) requestIds.push(requestId);
      return response;
    },
  });
  const client = new Client({ name: 'gateway-test', version: '1.0.0' });
  await client.connect(transport);
  return { client, key, requestIds, close: () => client.close() };
}
