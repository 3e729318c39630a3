import { createServer, type IncomingMessage, type Server as HttpServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { McpServer, ResourceTemplate } from '@modelcontextprotocol/sdk/server/mcp.js';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { CallToolRequestSchema, ErrorCode, GetPromptRequestSchema, ListPromptsRequestSchema, ListToolsRequestSchema, McpError } from '@modelcontextprotocol/sdk/types.js';
import * as z from 'zod';

/**
 * Upstream MCP servers for the tool bridge's tests, built with the MCP SDK itself and served over real
 * HTTP on loopback (Streamable HTTP, a server and transport per request as the SDK's stateless example).
 */
export interface McpUpstream {
  /** The MCP endpoint, to give `mcp add --url`. */
  url: string;
  /** The headers of every request it received, in order. */
  received: Array<IncomingMessage['headers']>;
  close(): Promise<void>;
}

async function serve(handle: (request: IncomingMessage, response: ServerResponse) => Promise<void>): Promise<McpUpstream> {
  const received: Array<IncomingMessage['headers']> = [];
  const server: HttpServer = createServer((request, response) => {
    received.push(request.headers);
    handle(request, response).catch(() => response.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    received,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/** Hands a request to a fresh SDK server and stateless transport; GET (no standalone stream) is 405. */
async function answerStatelessly(build: () => McpServer | Server, request: IncomingMessage, response: ServerResponse): Promise<void> {
  if (request.method !== 'POST') {
    response.writeHead(405, { allow: 'POST' }).end();
    return;
  }
  const mcp = build();
  const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
  response.on('close', () => {
    void transport.close();
    void mcp.close();
  });
  await mcp.connect(transport);
  await transport.handleRequest(request, response);
}

function waitUntilAborted(signal: AbortSignal, ms: number): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener('abort', () => {
      clearTimeout(timer);
      resolve();
    });
  });
}

/**
 * "docs": refuses any request without `X-Docs-Token: <token>` (401, echoing what it got, as careless
 * servers do). Tools: search (with a resource link), report_progress (two progress notifications),
 * broken (an isError result), stall (answers after a minute). A resource, a resource template and a prompt.
 */
export function startDocsServer(token: string): Promise<McpUpstream> {
  const build = () => {
    const server = new McpServer({ name: 'docs', version: '1.0.0' });
    server.registerTool('search', { description: 'Searches the docs', inputSchema: { query: z.string() } }, async ({ query }) => ({
      content: [
        { type: 'text', text: `3 pages match "${query}"` },
        { type: 'resource_link', uri: `docs://pages/${encodeURIComponent(query)}`, name: query },
      ],
    }));
    server.registerTool('report_progress', { description: 'Reports progress twice' }, async (extra) => {
      const progressToken = extra._meta?.progressToken;
      if (progressToken !== undefined) {
        for (const progress of [1, 2]) {
          await extra.sendNotification({ method: 'notifications/progress', params: { progressToken, progress, total: 2, message: `step ${progress}` } });
        }
      }
      return { content: [{ type: 'text', text: progressToken === undefined ? 'no progress asked' : 'done' }] };
    });
    server.registerTool('broken', { description: 'Always fails' }, async () => ({ content: [{ type: 'text', text: 'index is corrupt' }], isError: true }));
    server.registerTool('stall', { description: 'Answers after a minute' }, async (extra) => {
      await waitUntilAborted(extra.signal, 60_000);
      return { content: [{ type: 'text', text: 'finally' }] };
    });
    server.registerResource('intro', 'docs://pages/intro', { mimeType: 'text/markdown' }, async (uri) => ({
      contents: [{ uri: uri.href, mimeType: 'text/markdown', text: '# Introduction' }],
    }));
    server.registerResource('page', new ResourceTemplate('docs://pages/{slug}', { list: undefined }), { mimeType: 'text/markdown' }, async (uri, { slug }) => ({
      contents: [{ uri: uri.href, mimeType: 'text/markdown', text: `# ${String(slug)}` }],
    }));
    server.registerPrompt('summarize', { description: 'Summarize a page', argsSchema: { page: z.string() } }, ({ page }) => ({
      messages: [{ role: 'user', content: { type: 'text', text: `Summarize ${page}.` } }],
    }));
    return server;
  };
  return serve(async (request, response) => {
    const presented = request.headers['x-docs-token'];
    if (presented !== token) {
      response.writeHead(401, { 'content-type': 'text/plain' }).end(`token "${String(presented)}" is not valid here`);
      return;
    }
    await answerStatelessly(build, request, response);
  });
}

/** "tickets": five tools listed two per page (the low-level SDK server, paginating by cursor). */
export function startTicketsServer(): Promise<McpUpstream> {
  const names = ['open', 'close', 'assign', 'comment', 'label'];
  const build = () => {
    const server = new Server({ name: 'tickets', version: '1.0.0' }, { capabilities: { tools: {} } });
    server.setRequestHandler(ListToolsRequestSchema, async (request) => {
      const start = Number(request.params?.cursor ?? 0);
      const page = names.slice(start, start + 2).map((name) => ({ name, description: `${name} a ticket`, inputSchema: { type: 'object' as const } }));
      return { tools: page, ...(start + 2 < names.length ? { nextCursor: String(start + 2) } : {}) };
    });
    server.setRequestHandler(CallToolRequestSchema, async (request) => ({ content: [{ type: 'text', text: `ticket ${request.params.name}d` }] }));
    return server;
  };
  return serve((request, response) => answerStatelessly(build, request, response));
}

/**
 * "vault": a careless server that echoes its bearer token wherever it can. Without `Authorization: Bearer
 * <token>` it answers 401 `invalid token <what it got>`. With it: `whoami` answers with the token (also as
 * a property name, and reports progress naming it), `expired` is an isError result naming it, `reject` and every prompt a
 * JSON-RPC error naming it.
 */
export function startBearerEchoServer(token: string): Promise<McpUpstream> {
  const build = () => {
    const server = new Server({ name: 'vault', version: '1.0.0' }, { capabilities: { tools: {}, prompts: {} } });
    server.setRequestHandler(ListToolsRequestSchema, async () => ({
      tools: ['whoami', 'expired', 'reject'].map((name) => ({ name, description: `Uses token ${token}`, inputSchema: { type: 'object' as const } })),
    }));
    server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
      const progressToken = request.params._meta?.progressToken;
      if (request.params.name === 'reject') throw new McpError(ErrorCode.InvalidRequest, `token ${token} rejected`);
      if (request.params.name === 'expired') return { content: [{ type: 'text', text: `token ${token} has expired` }], isError: true };
      if (progressToken !== undefined) await extra.sendNotification({ method: 'notifications/progress', params: { progressToken, progress: 1, message: `checking ${token}` } });
      return { content: [{ type: 'text', text: `signed in with ${token}` }], structuredContent: { token, user: 'ada', sessions: { [token]: 'active' } } };
    });
    server.setRequestHandler(ListPromptsRequestSchema, async () => ({ prompts: [{ name: 'greet' }] }));
    server.setRequestHandler(GetPromptRequestSchema, async () => {
      throw new McpError(ErrorCode.InvalidRequest, `token ${token} rejected`);
    });
    return server;
  };
  return serve(async (request, response) => {
    const presented = String(request.headers.authorization ?? '');
    if (presented !== `Bearer ${token}`) {
      response.writeHead(401, { 'content-type': 'text/plain' }).end(`invalid token ${presented.replace(/^Bearer /, '')}`);
      return;
    }
    await answerStatelessly(build, request, response);
  });
}

/**
 * "sloppy": a hand-written server that speaks JSON-RPC but not quite MCP. Its initialize is right; its
 * tools/list holds a tool whose input schema is not an object schema, and every tools/call runs (counted
 * in `calls`) and then answers a content block of a type MCP does not have.
 */
export async function startSloppyServer(): Promise<McpUpstream & { calls: number }> {
  let calls = 0;
  const upstream = await serve(async (request, response) => {
    if (request.method !== 'POST') return void response.writeHead(405, { allow: 'POST' }).end();
    let body = '';
    for await (const chunk of request) body += String(chunk);
    const message = JSON.parse(body) as { id?: number; method: string };
    if (message.id === undefined) return void response.writeHead(202).end();
    const results: Record<string, unknown> = {
      initialize: { protocolVersion: '2025-06-18', capabilities: { tools: {} }, serverInfo: { name: 'sloppy', version: '1.0.0' } },
      'tools/list': { tools: [{ name: 'fine', inputSchema: { type: 'object' } }, { name: 'loose', inputSchema: {} }] },
      'tools/call': { content: [{ type: 'markdown', text: '**done**' }] },
    };
    if (message.method === 'tools/call') calls += 1;
    response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ jsonrpc: '2.0', id: message.id, result: results[message.method] ?? {} }));
  });
  return Object.defineProperty(upstream, 'calls', { get: () => calls }) as McpUpstream & { calls: number };
}

const MB = 1024 * 1024;

/**
 * "hangup": a hand-written server whose initialize and tools/list answer in JSON, and whose tools/call
 * answers on an SSE stream that it then closes: `fine` with its result, `silent` with a comment and no
 * answer, `garbled` with an event that is not JSON, `truncated` with half its answer's event (the stream
 * ended cleanly), `dropped` with half its answer's event and then the connection destroyed, `huge` with a
 * 7 MB result, written in 1 MB chunks (no Content-Length). `methods` lists every request it got, in order.
 */
export async function startHangUpServer(): Promise<McpUpstream & { methods: string[] }> {
  const methods: string[] = [];
  const upstream = await serve(async (request, response) => {
    if (request.method !== 'POST') return void response.writeHead(405, { allow: 'POST' }).end();
    let body = '';
    for await (const chunk of request) body += String(chunk);
    const message = JSON.parse(body) as { id?: number; method: string; params?: { name?: string } };
    methods.push(message.method);
    if (message.id === undefined) return void response.writeHead(202).end();
    const answer = (result: unknown) => JSON.stringify({ jsonrpc: '2.0', id: message.id, result });
    if (message.method !== 'tools/call') {
      const results: Record<string, unknown> = {
        initialize: { protocolVersion: '2025-06-18', capabilities: { tools: {} }, serverInfo: { name: 'hangup', version: '1.0.0' } },
        'tools/list': { tools: ['fine', 'silent', 'garbled', 'truncated', 'dropped', 'huge'].map((name) => ({ name, inputSchema: { type: 'object' } })) },
      };
      return void response.writeHead(200, { 'content-type': 'application/json' }).end(answer(results[message.method] ?? {}));
    }
    const events: Record<string, string> = {
      fine: `event: message\ndata: ${answer({ content: [{ type: 'text', text: 'fine' }] })}\n\n`,
      silent: ': hi\n\n',
      garbled: 'event: message\ndata: not json\n\n',
      truncated: `event: message\ndata: ${answer({ content: [] }).slice(0, 30)}`,
    };
    response.writeHead(200, { 'content-type': 'text/event-stream' });
    if (message.params?.name === 'huge') {
      const event = `event: message\ndata: ${answer({ content: [{ type: 'text', text: 'x'.repeat(7 * MB) }] })}\n\n`;
      for (let start = 0; start < event.length; start += MB) response.write(event.slice(start, start + MB));
      return void response.end();
    }
    if (message.params?.name === 'dropped') return void response.write(`event: message\ndata: ${answer({ content: [] }).slice(0, 30)}`, () => response.destroy());
    response.end(events[message.params?.name ?? ''] ?? '');
  });
  return Object.assign(upstream, { methods });
}

/**
 * "plain": a hand-written server that answers every request in plain JSON (Content-Type application/json).
 * Its tools/call `busy` answers a JSON-RPC error of its own with code -32000 (the code the SDK also gives a
 * connection it closed), `late` one with -32001 (the SDK's time-out code), `aside` a notification and no
 * answer, `misaddressed` the answer to another request, `accepted` HTTP 202 and no body (a notification's
 * answer), `emptied` HTTP 204, `untyped` its result with no Content-Type, `huge` a 7 MB result (with its Content-Length), `fine` its result. `calls` counts
 * its tools/calls.
 */
export async function startPlainJsonServer(): Promise<McpUpstream & { calls: number }> {
  let calls = 0;
  const upstream = await serve(async (request, response) => {
    if (request.method !== 'POST') return void response.writeHead(405, { allow: 'POST' }).end();
    let body = '';
    for await (const chunk of request) body += String(chunk);
    const message = JSON.parse(body) as { id?: number; method: string; params?: { name?: string } };
    if (message.id === undefined) return void response.writeHead(202).end();
    const reply = (answer: unknown) => void response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(answer));
    const result = (value: unknown) => reply({ jsonrpc: '2.0', id: message.id, result: value });
    if (message.method === 'initialize') return result({ protocolVersion: '2025-06-18', capabilities: { tools: {} }, serverInfo: { name: 'plain', version: '1.0.0' } });
    if (message.method === 'tools/list') return result({ tools: ['fine', 'busy', 'late', 'aside', 'misaddressed', 'accepted', 'emptied', 'untyped', 'huge'].map((name) => ({ name, inputSchema: { type: 'object' } })) });
    calls += 1;
    if (message.params?.name === 'accepted') return void response.writeHead(202).end();
    if (message.params?.name === 'emptied') return void response.writeHead(204).end();
    if (message.params?.name === 'huge') {
      const huge = JSON.stringify({ jsonrpc: '2.0', id: message.id, result: { content: [{ type: 'text', text: 'x'.repeat(7 * MB) }] } });
      return void response.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(huge) }).end(huge);
    }
    if (message.params?.name === 'untyped') return void response.writeHead(200).end(JSON.stringify({ jsonrpc: '2.0', id: message.id, result: { content: [] } }));
    const answers: Record<string, unknown> = {
      fine: { jsonrpc: '2.0', id: message.id, result: { content: [{ type: 'text', text: 'fine' }] } },
      busy: { jsonrpc: '2.0', id: message.id, error: { code: -32000, message: 'Too many searches running; try again in a minute' } },
      late: { jsonrpc: '2.0', id: message.id, error: { code: -32001, message: 'The index did not answer in time' } },
      aside: { jsonrpc: '2.0', method: 'notifications/message', params: { level: 'info', data: 'working on it' } },
      misaddressed: { jsonrpc: '2.0', id: 'someone-else', result: { content: [] } },
    };
    reply(answers[message.params?.name ?? ''] ?? answers.fine);
  });
  return Object.defineProperty(upstream, 'calls', { get: () => calls }) as McpUpstream & { calls: number };
}

/** A URL where nothing listens: a server that is down. */
export async function downServerUrl(): Promise<string> {
  const placeholder = await serve(async () => {});
  await placeholder.close();
  return placeholder.url;
}
