import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import { McpError } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectToGateway, type GatewayMcpClient } from '../support/mcp-gateway-client.ts';
import { downServerUrl, startDocsServer, startTicketsServer, type McpUpstream } from '../support/mcp-upstream-servers.ts';
import { startTestGateway, type TestGateway } from '../support/test-gateway.ts';

const DOCS_TOKEN = 'docs-secret-0123456789';
const UNAVAILABLE = 'model-gateway/unavailable-servers';

let gateway: TestGateway;
let docs: McpUpstream;
let tickets: McpUpstream;
let mcp: GatewayMcpClient;

beforeAll(async () => {
  // A short upstream time-out, so that the stalling tool is given up on quickly.
  gateway = await startTestGateway({ GATEWAY_MCP_UPSTREAM_TIMEOUT_MS: '3000' });
  docs = await startDocsServer(DOCS_TOKEN);
  tickets = await startTicketsServer();
  await gateway.admin({ command: 'project.create', projectId: 'tools' });
  await gateway.admin({ command: 'project.update', projectId: 'tools', mcp: true });
  await gateway.admin({ command: 'mcp.add', projectId: 'tools', name: 'docs', url: docs.url, headers: [{ name: 'X-Docs-Token', value: DOCS_TOKEN }] });
  await gateway.admin({ command: 'mcp.add', projectId: 'tools', name: 'tickets', url: tickets.url });
  await gateway.admin({ command: 'mcp.add', projectId: 'tools', name: 'down', url: await downServerUrl() });
  const { key } = await gateway.admin<{ key: string }>({ command: 'key.create', projectId: 'tools' });
  mcp = await connectToGateway(gateway.url, key);
}, 30_000);

afterAll(async () => {
  await mcp?.close();
  await gateway?.close();
  await docs?.close();
  await tickets?.close();
});

/** Every page of tools/list, following the bridge's cursors; the `_meta` of each page. */
async function allTools(): Promise<{ tools: Tool[]; pages: number; metas: unknown[] }> {
  const tools: Tool[] = [];
  const metas: unknown[] = [];
  let cursor: string | undefined;
  let pages = 0;
  do {
    const page = await mcp.client.listTools(cursor === undefined ? undefined : { cursor });
    tools.push(...page.tools);
    metas.push(page._meta);
    cursor = page.nextCursor;
    pages += 1;
  } while (cursor !== undefined && pages < 10);
  return { tools, pages, metas };
}

describe('the tool bridge, driven by the MCP SDK client', () => {
  it("identifies itself and offers tools, prompts and resources", () => {
    expect(mcp.client.getServerVersion()?.name).toBe('aws-model-gateway');
    expect(mcp.client.getServerCapabilities()).toMatchObject({ tools: {}, prompts: {}, resources: {} });
    expect(mcp.client.getInstructions()).toContain('<server>__<name>');
  });

  it("lists every server's tools as <server>__<tool>, paging through the servers' own pages, and names the server that is down", async () => {
    const { tools, pages, metas } = await allTools();

    expect(tools.map((tool) => tool.name)).toEqual([
      'docs__search',
      'docs__report_progress',
      'docs__broken',
      'docs__stall',
      'tickets__open',
      'tickets__close',
      'tickets__assign',
      'tickets__comment',
      'tickets__label',
    ]);
    expect(pages).toBe(3); // tickets lists two tools a page
    expect(tools.find((tool) => tool.name === 'docs__search')?.inputSchema).toMatchObject({ properties: { query: { type: 'string' } }, required: ['query'] });
    // Asked on the first page only: the cursor carries only the servers that have more.
    expect(metas[0]).toEqual({ [UNAVAILABLE]: [{ server: 'down', reason: 'unavailable', message: expect.stringMatching(/^The MCP server "down" could not be reached/) }] });
    expect(metas.slice(1)).toEqual([undefined, undefined]);
  });

  it('answers a list with a JSON-RPC internal error naming each server, one after another, when every server is down', async () => {
    await gateway.admin({ command: 'project.create', projectId: 'outage' });
    await gateway.admin({ command: 'project.update', projectId: 'outage', mcp: true });
    await gateway.admin({ command: 'mcp.add', projectId: 'outage', name: 'down', url: await downServerUrl() });
    await gateway.admin({ command: 'mcp.add', projectId: 'outage', name: 'gone', url: await downServerUrl() });
    const { key } = await gateway.admin<{ key: string }>({ command: 'key.create', projectId: 'outage' });
    const outage = await connectToGateway(gateway.url, key);
    try {
      await expect(outage.client.listTools()).rejects.toMatchObject({
        code: -32603,
        message: expect.stringMatching(/^MCP error -32603: The MCP server "down" could not be reached: [^;]+; The MCP server "gone" could not be reached: /),
      });
    } finally {
      await outage.close();
    }
  });

  it('pages a server named like a property every object has ("constructor") once, as every other', async () => {
    await gateway.admin({ command: 'project.create', projectId: 'names' });
    await gateway.admin({ command: 'project.update', projectId: 'names', mcp: true });
    // One page of tools, while tickets has three: later pages must not ask it again.
    await gateway.admin({ command: 'mcp.add', projectId: 'names', name: 'constructor', url: docs.url, headers: [{ name: 'X-Docs-Token', value: DOCS_TOKEN }] });
    await gateway.admin({ command: 'mcp.add', projectId: 'names', name: 'tickets', url: tickets.url });
    const { key } = await gateway.admin<{ key: string }>({ command: 'key.create', projectId: 'names' });
    const names = await connectToGateway(gateway.url, key);
    try {
      const listed: string[] = [];
      let cursor: string | undefined;
      let pages = 0;
      do {
        const page = await names.client.listTools(cursor === undefined ? undefined : { cursor });
        listed.push(...page.tools.map((tool) => tool.name));
        cursor = page.nextCursor;
        pages += 1;
      } while (cursor !== undefined && pages < 10);

      expect(listed).toEqual([
        ...['search', 'report_progress', 'broken', 'stall'].map((tool) => `constructor__${tool}`),
        ...['open', 'close', 'assign', 'comment', 'label'].map((tool) => `tickets__${tool}`),
      ]);
    } finally {
      await names.close();
    }
  });

  it('sends the secret header to the server it belongs to, and to no other', () => {
    expect(docs.received.length).toBeGreaterThan(0);
    expect(docs.received.every((headers) => headers['x-docs-token'] === DOCS_TOKEN)).toBe(true);
    expect(tickets.received.some((headers) => 'x-docs-token' in headers)).toBe(false);
    expect(tickets.received.some((headers) => 'authorization' in headers)).toBe(false);
  });

  it('calls a bridged tool and maps the resource link it returns into the bridge', async () => {
    const result = await mcp.client.callTool({ name: 'docs__search', arguments: { query: 'lambda' } });

    expect(result).toEqual({
      content: [
        { type: 'text', text: '3 pages match "lambda"' },
        { type: 'resource_link', name: 'lambda', uri: 'mcp-gateway://docs/docs://pages/lambda' },
      ],
    });
    const linked = await mcp.client.readResource({ uri: 'mcp-gateway://docs/docs://pages/lambda' });
    expect(linked.contents).toEqual([{ uri: 'mcp-gateway://docs/docs://pages/lambda', mimeType: 'text/markdown', text: '# lambda' }]);
  });

  it("forwards the upstream's progress notifications under the client's progress token", async () => {
    const progress: unknown[] = [];
    const result = await mcp.client.callTool({ name: 'docs__report_progress', arguments: {} }, undefined, { onprogress: (update) => void progress.push(update) });

    expect(result.content).toEqual([{ type: 'text', text: 'done' }]);
    expect(progress).toEqual([
      { progress: 1, total: 2, message: 'step 1' },
      { progress: 2, total: 2, message: 'step 2' },
    ]);
  });

  it("passes a tool's own error result through", async () => {
    await expect(mcp.client.callTool({ name: 'docs__broken', arguments: {} })).resolves.toEqual({ content: [{ type: 'text', text: 'index is corrupt' }], isError: true });
  });

  it('reports a server that is down as an error result naming it', async () => {
    const result = await mcp.client.callTool({ name: 'down__anything', arguments: {} });

    expect(result.isError).toBe(true);
    expect(result.content).toEqual([{ type: 'text', text: expect.stringMatching(/^The MCP server "down" could not be reached: .*ECONNREFUSED/) }]);
  });

  it('gives up on a tool that does not answer within the time-out, as an error result naming its server', async () => {
    const result = await mcp.client.callTool({ name: 'docs__stall', arguments: {} });

    expect(result).toEqual({ content: [{ type: 'text', text: 'The MCP server "docs" did not answer within 3 s.' }], isError: true });
  });

  it('meters a call whose client went away: the bridge, not told (as in Lambda), waits for the server to its time-out', async () => {
    const abort = new AbortController();
    const response = await fetch(`${gateway.url}/mcp/v1`, {
      method: 'POST',
      headers: { authorization: `Bearer ${mcp.key}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'docs__stall', arguments: {} } }),
      signal: abort.signal,
    });
    const requestId = response.headers.get('x-request-id') ?? '';
    abort.abort();

    await expect
      .poll(
        async () => {
          await gateway.host.drainUsage();
          const lookup = await fetch(`${gateway.url}/v1/generation?id=${requestId}`, { headers: { authorization: `Bearer ${mcp.key}` } });
          return lookup.status === 200 ? ((await lookup.json()) as { model: string; error_code: string }) : undefined;
        },
        { timeout: 10_000, interval: 250 },
      )
      .toMatchObject({ model: 'mcp/docs/stall', error_code: 'mcp_upstream_timeout' });
  });

  it('answers an unknown tool, or one of a server the project lacks, with invalid params', async () => {
    for (const name of ['docs__missing', 'nowhere__search', 'search']) {
      const refusal = await mcp.client.callTool({ name, arguments: {} }).catch((error: unknown) => error);
      if (name === 'docs__missing') {
        // The server itself says so: its answer is forwarded, naming it.
        expect(refusal).toMatchObject({ isError: true });
        continue;
      }
      expect(refusal).toBeInstanceOf(McpError);
      expect(refusal).toMatchObject({ code: -32602, message: `MCP error -32602: Unknown tool: ${name}` });
    }
  });

  it('lists resources and resource templates under mcp-gateway://<server>/ and reads them back', async () => {
    const { resources, _meta } = await mcp.client.listResources();
    expect(resources).toEqual([{ name: 'intro', uri: 'mcp-gateway://docs/docs://pages/intro', mimeType: 'text/markdown' }]);
    expect(_meta).toMatchObject({ [UNAVAILABLE]: [{ server: 'down' }] });

    const { resourceTemplates } = await mcp.client.listResourceTemplates();
    expect(resourceTemplates).toEqual([{ name: 'page', uriTemplate: 'mcp-gateway://docs/docs://pages/{slug}', mimeType: 'text/markdown' }]);

    const read = await mcp.client.readResource({ uri: 'mcp-gateway://docs/docs://pages/intro' });
    expect(read.contents).toEqual([{ uri: 'mcp-gateway://docs/docs://pages/intro', mimeType: 'text/markdown', text: '# Introduction' }]);
  });

  it('refuses a resource URI the bridge did not hand out, and names the server when it is down', async () => {
    await expect(mcp.client.readResource({ uri: 'docs://pages/intro' })).rejects.toMatchObject({ code: -32002 });
    await expect(mcp.client.readResource({ uri: 'mcp-gateway://down/file:///a' })).rejects.toMatchObject({
      message: expect.stringContaining('The MCP server "down" could not be reached'),
      data: { server: 'down', reason: 'unavailable' },
    });
  });

  it('lists prompts as <server>__<prompt> and gets them', async () => {
    const { prompts } = await mcp.client.listPrompts();
    expect(prompts).toEqual([{ name: 'docs__summarize', description: 'Summarize a page', arguments: [{ name: 'page', required: true }] }]);

    const prompt = await mcp.client.getPrompt({ name: 'docs__summarize', arguments: { page: 'intro' } });
    expect(prompt.messages).toEqual([{ role: 'user', content: { type: 'text', text: 'Summarize intro.' } }]);
    await expect(mcp.client.getPrompt({ name: 'tickets__triage' })).rejects.toMatchObject({ code: -32601 });
  });

  it('refuses a cursor it did not hand out', async () => {
    await expect(mcp.client.listTools({ cursor: 'not-a-cursor' })).rejects.toMatchObject({ code: -32602 });
  });
});
