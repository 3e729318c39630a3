import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomBytes } from 'node:crypto';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { APIGatewayProxyEventV2, Context, SQSBatchResponse, SQSEvent } from 'aws-lambda';
import { registerInProcessUsageSink } from './in-process-usage-sink.ts';
import { LocalUsageQueue } from './local-usage-queue.ts';
import type { EmbeddedStore } from './embedded-store.ts';
import { openLocalEnvironment, type LocalEnvironment } from './local-environment.ts';
import { buildFunctionUrlEvent } from './function-url-event.ts';
import { installLambdaRuntimeEmulation, LocalResponseStream } from './lambda-runtime-emulation.ts';
import { hostFilePath, LOCAL_ADMIN_TOKEN_HEADER, writeHostFile } from './host-file.ts';
import { startConsoleHost } from './console-host.ts';

export interface LocalHostOptions {
  port: number;
  /** Loopback by default: the local host is for development, not for serving a network. */
  hostname?: string;
  dataDir: string;
  /** Extra environment for the handlers (e.g. a short upstream time-out in tests). */
  env?: Record<string, string>;
}

export interface LocalHost {
  url: string;
  port: number;
  dataDir: string;
  /** True when the store held no project and no key when the host started. */
  startedEmpty: boolean;
  /** The embedded store (closing it simulates a configuration store outage). */
  store: EmbeddedStore;
  invokeAdmin(event: unknown): Promise<unknown>;
  /** A one-time link that signs `member` in to the console at `<url>/console/`. */
  consoleSignInLink(member: string): string;
  /** Waits until every usage record handed over so far has been written (or dead-lettered). */
  drainUsage(): Promise<void>;
  close(): Promise<void>;
}

type StreamingHandler = (event: APIGatewayProxyEventV2, stream: LocalResponseStream, context: Context) => Promise<void>;
type InvokeHandler = (event: unknown, context: Context) => Promise<unknown>;

/** Function URLs refuse request payloads above 6 MB before the handler runs; a little headroom here. */
const MAX_LOCAL_BODY_BYTES = 8 * 1024 * 1024;
const INVOKE_PATH = /^\/2015-03-31\/functions\/([^/]+)\/invocations$/;
let started = false;

/**
 * Hosts the Lambda handlers on one machine: an HTTP server that behaves like their function URLs
 * (streaming included), the Lambda Invoke API for the admin function, the embedded DynamoDB-compatible
 * store on disk and the owner-only secret file. Handlers read their configuration at import, as at a
 * cold start, so one process hosts one gateway.
 */
export async function startLocalHost(options: LocalHostOptions): Promise<LocalHost> {
  if (started) throw new Error('A local host is already running in this process.');
  started = true;
  let environment: LocalEnvironment;
  try {
    environment = await openLocalEnvironment(options.dataDir, options.env);
  } catch (error) {
    started = false;
    throw error;
  }
  const { dataDir, store } = environment;
  const startedEmpty = await store.isEmpty();
  installLambdaRuntimeEmulation();
  // The usage queue must exist before the route groups start handing it records.
  const writer = (await import('../../functions/writer/handler.ts')).handler as unknown as (event: SQSEvent, context: Context) => Promise<SQSBatchResponse>;
  const usageQueue = new LocalUsageQueue({
    deliver: (event) => writer(event, lambdaContext('gateway-writer')),
    deadLetterFile: join(dataDir, 'usage-dead-letters.jsonl'),
    report: (message) => console.error(`local host: ${message}`),
  });
  registerInProcessUsageSink(usageQueue);
  const openAi = (await import('../../functions/openai/handler.ts')).handler as unknown as StreamingHandler;
  const messages = (await import('../../functions/messages/handler.ts')).handler as unknown as StreamingHandler;
  /** CloudFront's behaviours: path patterns to route groups, the OpenAI-compatible group by default. */
  const routeGroupFor = (path: string): StreamingHandler => (path === '/v1/messages' || path.startsWith('/v1/messages/') ? messages : openAi);
  const admin = (await import('../../functions/admin/handler.ts')).handler as unknown as InvokeHandler;
  const invokeHandlers: Record<string, InvokeHandler> = { admin };
  const adminToken = randomBytes(32).toString('base64url');
  const consoleHost = await startConsoleHost();

  const server = createServer((request, response) => {
    void serveRequest(request, response).catch((error: unknown) => failRequest(response, error));
  });
  async function serveRequest(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const body = await readBody(request);
    if (body === undefined) return sendJson(response, 413, { message: 'Request Entity Too Large' });
    const path = (request.url ?? '/').split('?')[0] ?? '/';
    const invoke = INVOKE_PATH.exec(path);
    if (invoke) return serveInvoke(request, response, invoke[1] ?? '', body);
    if (consoleHost.serves(path)) return consoleHost.serve(request, response, body);
    const stream = new LocalResponseStream(response);
    const handler = routeGroupFor(path);
    await handler(buildFunctionUrlEvent(request, body, Date.now()), stream, lambdaContext(handler === messages ? 'gateway-messages' : 'gateway-openai'));
  }

  async function serveInvoke(request: IncomingMessage, response: ServerResponse, name: string, body: Buffer) {
    if (request.method !== 'POST' || request.headers[LOCAL_ADMIN_TOKEN_HEADER] !== adminToken) {
      return sendJson(response, 403, { Type: 'User', message: 'The local Invoke API needs the token from the host file.' });
    }
    const handler = invokeHandlers[decodeURIComponent(name)];
    if (!handler) return sendJson(response, 404, { Type: 'User', message: `Function not found: ${name}` });
    const event: unknown = body.length ? JSON.parse(body.toString('utf8')) : {};
    sendJson(response, 200, await handler(event, lambdaContext(name)));
  }

  await new Promise<void>((resolveListen, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.hostname ?? '127.0.0.1', () => resolveListen());
  });
  const { port } = server.address() as AddressInfo;
  const url = `http://127.0.0.1:${port}`;
  await writeHostFile(dataDir, { url, pid: process.pid, adminToken });

  return {
    url,
    port,
    dataDir,
    startedEmpty,
    store,
    invokeAdmin: (event) => admin(event, lambdaContext('admin')),
    consoleSignInLink: (member) => consoleHost.signInLink(url, member),
    drainUsage: () => usageQueue.drain(),
    async close() {
      await rm(hostFilePath(dataDir), { force: true });
      await new Promise<void>((resolveClose) => {
        server.close(() => resolveClose());
        server.closeAllConnections();
      });
      await usageQueue.drain();
      await store.close();
      started = false;
    },
  };
}

async function readBody(request: IncomingMessage): Promise<Buffer | undefined> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request) {
    size += (chunk as Buffer).length;
    if (size > MAX_LOCAL_BODY_BYTES) return undefined;
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
}

function sendJson(response: ServerResponse, status: number, payload: unknown): void {
  const body = JSON.stringify(payload);
  response.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) }).end(body);
}

/** A handler that throws before answering gets what a function URL gives: 502 and a terse body. */
function failRequest(response: ServerResponse, error: unknown): void {
  console.error('local host: handler failed', error);
  if (!response.headersSent) sendJson(response, 502, { message: 'Internal Server Error' });
  else response.destroy();
}

function lambdaContext(functionName: string): Context {
  const deadline = Date.now() + 15 * 60_000;
  return {
    callbackWaitsForEmptyEventLoop: false,
    functionName,
    functionVersion: '$LATEST',
    invokedFunctionArn: `arn:aws:lambda:local:000000000000:function:${functionName}`,
    memoryLimitInMB: '1024',
    awsRequestId: randomBytes(16).toString('hex'),
    logGroupName: `/aws/lambda/${functionName}`,
    logStreamName: 'local',
    getRemainingTimeInMillis: () => Math.max(0, deadline - Date.now()),
    done: () => {},
    fail: () => {},
    succeed: () => {},
  };
}

