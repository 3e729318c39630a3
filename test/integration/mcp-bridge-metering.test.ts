import { describe, expect, it } from 'vitest';
import { queryLocalUsage } from '../../tools/cli/local-usage-query.ts';
import { connectToGateway } from '../support/mcp-gateway-client.ts';
import { gateway, key, post, useMcpBridgeProject } from './mcp-bridge-project.ts';

useMcpBridgeProject();

interface Generation {
  id: string;
  endpoint: string;
  model: string;
  provider: string;
  status: string;
  http_status: number;
  error_code: string | null;
  total_cost: number;
  latency_ms: number;
  request_bytes: number | null;
  response_bytes: number | null;
  streamed: boolean;
}

async function generation(id: string): Promise<Generation> {
  await gateway.host.drainUsage();
  const response = await fetch(`${gateway.url}/v1/generation?id=${encodeURIComponent(id)}`, { headers: { authorization: `Bearer ${key}` } });
  expect(response.status).toBe(200);
  return (await response.json()) as Generation;
}

describe('metering of bridged tool calls', () => {
  it('records each call (server, tool, latency, status, bytes) under the request id the response carries', async () => {
    const client = await connectToGateway(gateway.url, key);
    try {
      await client.client.callTool({ name: 'docs__search', arguments: { query: 'metering' } });
      const searchId = client.requestIds.at(-1) ?? '';
      await client.client.callTool({ name: 'docs__broken', arguments: {} });
      const brokenId = client.requestIds.at(-1) ?? '';

      const search = await generation(searchId);
      expect(search).toMatchObject({ id: searchId, endpoint: 'mcp.tools_call', model: 'mcp/docs/search', provider: 'mcp', status: 'completed', http_status: 200, error_code: null, total_cost: 0, streamed: true });
      expect(search.request_bytes).toBe(Buffer.byteLength(JSON.stringify({ name: 'search', arguments: { query: 'metering' } })));
      expect(search.response_bytes).toBeGreaterThan(Buffer.byteLength('3 pages match "metering"'));
      expect(search.latency_ms).toBeGreaterThanOrEqual(0);
      await expect(generation(brokenId)).resolves.toMatchObject({ model: 'mcp/docs/broken', status: 'failed', error_code: 'tool_error' });

      const rows = await queryLocalUsage(
        gateway.host.dataDir,
        `SELECT endpoint, model, status, request_bytes, response_bytes, cost_nanos FROM usage_records WHERE id = '${searchId}'`,
      );
      expect(rows).toEqual([{ endpoint: 'mcp.tools_call', model: 'mcp/docs/search', status: 'completed', request_bytes: search.request_bytes, response_bytes: search.response_bytes, cost_nanos: 0 }]);
    } finally {
      await client.close();
    }
  });

  it('records each call of a batch under the request id and its position in the batch, one record per call', async () => {
    const call = (id: string, name: string) => ({ jsonrpc: '2.0', id, method: 'tools/call', params: { name, arguments: name === 'docs__search' ? { query: 'batch' } : {} } });
    const response = await post([{ jsonrpc: '2.0', id: 'list', method: 'tools/list' }, call('close', 'tickets__close'), call('search', 'docs__search')], { accept: 'application/json' });
    const requestId = response.headers.get('x-request-id') ?? '';
    expect(await response.json()).toHaveLength(3);

    await expect(generation(`${requestId}-2`)).resolves.toMatchObject({ id: `${requestId}-2`, model: 'mcp/tickets/close', status: 'completed' });
    await expect(generation(`${requestId}-3`)).resolves.toMatchObject({ id: `${requestId}-3`, model: 'mcp/docs/search', status: 'completed' });
    const rows = await queryLocalUsage(gateway.host.dataDir, `SELECT id, model FROM usage_records WHERE id LIKE '${requestId}%' ORDER BY id`);
    expect(rows).toEqual([
      { id: `${requestId}-2`, model: 'mcp/tickets/close' },
      { id: `${requestId}-3`, model: 'mcp/docs/search' },
    ]);
  });

  it('calls and meters nothing of a batch that repeats a JSON-RPC id, which is refused whole (one of its answers would be lost)', async () => {
    const call = (id: number, name: string) => ({ jsonrpc: '2.0', id, method: 'tools/call', params: { name, arguments: name === 'docs__search' ? { query: 'again' } : {} } });
    const response = await post([call(1, 'tickets__close'), call(1, 'docs__search'), call(2, 'tickets__open')], { accept: 'application/json' });
    const requestId = response.headers.get('x-request-id') ?? '';

    expect(response.status).toBe(400);
    expect(requestId).not.toBe('');
    expect(await response.json()).toMatchObject({ error: { code: -32600, data: { code: 'repeated_request_id' } } });
    await gateway.host.drainUsage();
    expect(await queryLocalUsage(gateway.host.dataDir, `SELECT id FROM usage_records WHERE id LIKE '${requestId}%'`)).toEqual([]);
  });

  it('meters a call to a server that is down as failed, and meters nothing for lists', async () => {
    await gateway.admin({ command: 'mcp.add', projectId: 'access', name: 'gone', url: 'http://127.0.0.1:9/mcp' });
    const response = await post({ jsonrpc: '2.0', id: 9, method: 'tools/call', params: { name: 'gone__x', arguments: {} } }, { accept: 'application/json' });
    const id = response.headers.get('x-request-id') ?? '';
    expect(await response.json()).toMatchObject({ result: { isError: true } });
    await expect(generation(id)).resolves.toMatchObject({ model: 'mcp/gone/x', status: 'failed', http_status: 502, error_code: 'mcp_upstream_unavailable', response_bytes: null, streamed: false });

    const list = await post({ jsonrpc: '2.0', id: 10, method: 'tools/list' }, { accept: 'application/json' });
    const listId = list.headers.get('x-request-id') ?? '';
    await gateway.host.drainUsage();
    const lookup = await fetch(`${gateway.url}/v1/generation?id=${listId}`, { headers: { authorization: `Bearer ${key}` } });
    expect(lookup.status).toBe(404);
    await gateway.admin({ command: 'mcp.remove', projectId: 'access', name: 'gone' });
  });
});