import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectToGateway, type GatewayMcpClient } from '../support/mcp-gateway-client.ts';
import { startSloppyServer, startTicketsServer, type McpUpstream } from '../support/mcp-upstream-servers.ts';
import { startTestGateway, type TestGateway } from '../support/test-gateway.ts';

let gateway: TestGateway;
let sloppy: McpUpstream & { calls: number };
let tickets: McpUpstream;
let mcp: GatewayMcpClient;

beforeAll(async () => {
  gateway = await startTestGateway();
  sloppy = await startSloppyServer();
  tickets = await startTicketsServer();
  await gateway.admin({ command: 'project.create', projectId: 'sloppy' });
  await gateway.admin({ command: 'project.update', projectId: 'sloppy', mcp: true });
  await gateway.admin({ command: 'mcp.add', projectId: 'sloppy', name: 'sloppy', url: sloppy.url });
  await gateway.admin({ command: 'mcp.add', projectId: 'sloppy', name: 'tickets', url: tickets.url });
  const { key } = await gateway.admin<{ key: string }>({ command: 'key.create', projectId: 'sloppy' });
  mcp = await connectToGateway(gateway.url, key);
}, 30_000);

afterAll(async () => {
  await mcp?.close();
  await gateway?.close();
  await sloppy?.close();
  await tickets?.close();
});

describe('a server that answers something that is not valid MCP', () => {
  it('is named in a list as answering invalid MCP, with the first thing wrong on one line, not as unreachable', async () => {
    const page = await mcp.client.listTools();

    expect(page.tools.map((tool) => tool.name)).toEqual(['tickets__open', 'tickets__close']);
    expect(page._meta).toEqual({
      'model-gateway/unavailable-servers': [
        { server: 'sloppy', reason: 'invalid', message: 'The MCP server "sloppy" answered with something that is not valid MCP: tools[1].inputSchema.type: Invalid input: expected "object"' },
      ],
    });
  });

  it('makes a tool call that ran answer an error result saying so, metered as an invalid answer', async () => {
    const before = sloppy.calls;
    const result = await mcp.client.callTool({ name: 'sloppy__fine', arguments: {} });

    expect(sloppy.calls).toBe(before + 1);
    expect(result).toEqual({
      content: [{ type: 'text', text: expect.stringMatching(/^The MCP server "sloppy" answered with something that is not valid MCP: content\[0\]: Invalid input$/) }],
      isError: true,
    });
    const requestId = mcp.requestIds.at(-1) ?? '';
    await gateway.host.drainUsage();
    const lookup = await fetch(`${gateway.url}/v1/generation?id=${requestId}`, { headers: { authorization: `Bearer ${mcp.key}` } });
    expect(await lookup.json()).toMatchObject({ model: 'mcp/sloppy/fine', status: 'failed', http_status: 502, error_code: 'mcp_upstream_invalid_answer' });
  });
});
