import { afterAll, beforeAll } from 'vitest';
import { startDocsServer, startTicketsServer, type McpUpstream } from '../support/mcp-upstream-servers.ts';
import { startTestGateway, type TestGateway } from '../support/test-gateway.ts';

/** The set-up the tool bridge's access, transport and metering tests share, and their raw POST. */
const DOCS_TOKEN = 'docs-secret-0123456789';

export let gateway: TestGateway;
export let docs: McpUpstream;
export let tickets: McpUpstream;
export let key: string;

/** Registers the file's set-up: a gateway whose project "access" has the docs server (behind a header secret) and the
 * tickets server, and a key of it; `gateway`, `docs`, `tickets` and `key` are live once it has run. */
export function useMcpBridgeProject(): void {
  beforeAll(async () => {
    gateway = await startTestGateway();
    docs = await startDocsServer(DOCS_TOKEN);
    tickets = await startTicketsServer();
    await gateway.admin({ command: 'project.create', projectId: 'access' });
    await gateway.admin({ command: 'project.update', projectId: 'access', mcp: true });
    await gateway.admin({ command: 'mcp.add', projectId: 'access', name: 'docs', url: docs.url, headers: [{ name: 'X-Docs-Token', value: DOCS_TOKEN }] });
    await gateway.admin({ command: 'mcp.add', projectId: 'access', name: 'tickets', url: tickets.url });
    ({ key } = await gateway.admin<{ key: string }>({ command: 'key.create', projectId: 'access' }));
  }, 30_000);

  afterAll(async () => {
    await gateway?.close();
    await docs?.close();
    await tickets?.close();
  });
}

export const initialize = { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } } };

/** One raw POST to the bridge, as an MCP client sends it unless `accept` says otherwise. */
export function post(body: unknown, options: { key?: string; accept?: string } = {}): Promise<Response> {
  return fetch(`${gateway.url}/mcp/v1`, {
    method: 'POST',
    headers: {
      ...(options.key === '' ? {} : { authorization: `Bearer ${options.key ?? key}` }),
      'content-type': 'application/json',
      accept: options.accept ?? 'application/json, text/event-stream',
      'mcp-protocol-version': '2025-06-18',
    },
    body: JSON.stringify(body),
  });
}
