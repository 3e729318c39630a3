import { GatewayError } from '../../shared/core/errors.ts';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomBytes } from 'node:crypto';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { APIGatewayProxyEventV2, Context } from 'aws-lambda';
import { routeGroupForPath, routeGroups } from '../../shared/http/route-groups.ts';
import type { RuntimeConfig } from '../../shared/config/runtime-config.ts';
import { createConfigCaches } from '../../shared/pipeline/config-caches.ts';
import type { RouteGroupDependencies } from '../../shared/wiring/create-gateway-services.ts';
import { MAX_REQUEST_BODY_BYTES } from '../../shared/pipeline/gateway-services.ts';
import { answerClientError, binaryBodyTooLarge, bodyStalled, bodyTooLarge, sendHostError } from './host-errors.ts';
import { LocalUsageQueue } from './local-usage-queue.ts';
import type { EmbeddedStore } from './embedded-store.ts';
import { buildFunctionUrlEvent } from './function-url-event.ts';
import { installLambdaRuntimeEmulation, LocalResponseStream } from './lambda-runtime-emulation.ts';
import { lambdaContext } from './lambda-context.ts';
import { hostFilePath, LOCAL_ADMIN_TOKEN_HEADER, writeHostFile } from './host-file.ts';
import { LocalHostError } from './local-host-error.ts';
import { openHostEnvironment, type HostEnvironmentOptions } from './open-host-environment.ts';
import { createRequestLog } from './request-log.ts';
import { startConsoleHost } from './console-host.ts';

export { LocalHostError };

/** `dataDir`, the handlers' settings (`env`: a short upstream time-out in tests, say) and the wait for the store, as openHostEnvironment takes them. */
export interface LocalHostOptions extends HostEnvironmentOptions {
  port: number;
  /** Loopback by default: the local host is for development, not for serving a network. */
  hostname?: string;
  /** How long a request body may send nothing before the host answers 408 (10 s unless given). */
  bodyStallMs?: number;
  /** Receives one line per gateway request (request-log.ts); no log without it. */
  logRequest?: (line: string) => void;
  /**
   * `sqs`: the handlers send usage records through SQS as in AWS (GATEWAY_USAGE_QUEUE_URL, with the SDK's
   * endpoint from the environment), not to the local queue. For the bench's AWS-shaped variant.
   */
  usageVia?: 'local-queue' | 'sqs';
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
  /** Waits until the usage records of every request answered so far have been written (or dead-lettered). */
  drainUsage(): Promise<void>;
  /** Requests whose handler is still running (streams being answered, records being handed over). */
  requestsInFlight(): number;
  /**
   * Stops taking requests, lets those in flight finish for up to `graceMs` (10 s unless given) so that they
   * are answered and metered in full, then cuts what is left (its provisional record stays in the journal),
   * writes the usage handed over and stops the backend. Says how many requests it cut.
   */
  close(options?: { graceMs?: number }): Promise<{ cutOff: number }>;
}

type StreamingHandler = (event: APIGatewayProxyEventV2, stream: LocalResponseStream, context: Context) => Promise<void>;
type InvokeHandler = (event: unknown, context: Context) => Promise<unknown>;
/** What every `functions/<group>/handler.ts` of a route group exports for hosts that inject their dependencies. */
type RouteGroupModule = { createHandler(config: RuntimeConfig, dependencies: RouteGroupDependencies): unknown };

/** Function URLs refuse request payloads above 6 MB before the handler runs; a little headroom here. */
const MAX_LOCAL_BODY_BYTES = 8 * 1024 * 1024;
/** How long a stop waits for the requests in flight (a long stream is cut after it, metered as interrupted). */
export const SHUTDOWN_GRACE_MS = 10_000;
const INVOKE_PATH = /^\/2015-03-31\/functions\/([^/]+)\/invocations$/;

/**
 * Hosts the Lambda handlers on one machine: an HTTP server that behaves like their function URLs
 * (streaming included) and routes paths to route groups with CloudFront's table (shared/http/route-groups.ts),
 * the Lambda Invoke API for the admin function, the embedded DynamoDB-compatible store on disk and the
 * owner-only secret file. Each handler is built by its module's factory with what the host injects: the
 * durable usage queue, and one set of configuration caches shared with the admin function and the console
 * (so a revoked key stops working at once, as in the process that revoked it in AWS). `/console*` is the
 * console's (its files and its function), matched before the route-group table as CloudFront does.
 */
export async function startLocalHost(options: LocalHostOptions): Promise<LocalHost> {
  const environment = await openHostEnvironment(options);
  const { dataDir, store: backend, config } = environment;
  try {
    await backend.startWriter(config);
  } catch (error) {
    await backend.shutdown();
    throw error;
  }
  const startedEmpty = await backend.isEmpty();
  installLambdaRuntimeEmulation();
  // The queue's bookkeeping and journal stay here (a record is on disk before its answer ends); the
  // writer runs in the backend process, off the requests' event loop and core.
  const usageQueue = new LocalUsageQueue({
    deliver: (event) => backend.deliver(event),
    deadLetterFile: join(dataDir, 'usage-dead-letters.jsonl'),
    journalFile: join(dataDir, 'usage-queue.jsonl'),
    report: (message) => console.error(`local host: ${message}`),
  });
  const requestLog = createRequestLog(options.logRequest);
  const usageSink = requestLog.observe(usageQueue);
  const caches = createConfigCaches({ now: () => Date.now() });
  const handlers = new Map<string, StreamingHandler>();
  for (const group of routeGroups) {
    const module = (await import(new URL(`../../${group.entry}`, import.meta.url).href)) as RouteGroupModule;
    const dependencies = options.usageVia === 'sqs' ? { caches } : { usageSink, caches };
    handlers.set(group.name, module.createHandler(config, dependencies) as StreamingHandler);
  }
  const adminModule = await import('../../functions/admin/handler.ts');
  const admin = adminModule.createHandler(config, { caches }) as unknown as InvokeHandler;
  const invokeHandlers: Record<string, InvokeHandler> = { admin };
  const adminToken = randomBytes(32).toString('base64url');
  /** Invocations whose answer has ended but which still hand their usage record over. */
  const handingOver = new Set<Promise<void>>();
  /** Invocations still running, and who waits for there to be none (a stop). */
  let inFlight = 0;
  let onIdle: (() => void) | undefined;
  const consoleHost = await startConsoleHost({ config, caches });

  const server = createServer((request, response) => {
    void requestLog.serve(request, response, () => serveRequest(request, response).catch((error: unknown) => failRequest(response, error)));
  });
  server.on('clientError', answerClientError);
  async function serveRequest(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const path = (request.url ?? '/').split('?')[0] ?? '/';
    const stallMs = options.bodyStallMs ?? BODY_STALL_MS;
    const body = await readBody(request, stallMs);
    if (body === 'too-large') return sendHostError(response, path, bodyTooLarge());
    if (body === 'stalled') return sendHostError(response, path, bodyStalled(stallMs / 1000));
    const invoke = INVOKE_PATH.exec(path);
    if (invoke) return serveInvoke(request, response, invoke[1] ?? '', body);
    if (consoleHost.serves(path)) return consoleHost.serve(request, response, body);
    const event = buildFunctionUrlEvent(request, body, Date.now());
    // A function URL refuses an invocation over 6 MB before the handler runs, a binary body counted base64-encoded.
    if (event.isBase64Encoded && (event.body?.length ?? 0) > MAX_REQUEST_BODY_BYTES) return sendHostError(response, path, binaryBodyTooLarge());
    const stream = new LocalResponseStream(response);
    const group = routeGroupForPath(path);
    const handler = handlers.get(group.name) as StreamingHandler;
    const invocation = handler(event, stream, lambdaContext(`gateway-${group.name}`));
    // Its answer has ended, its usage record may still be on its way to the queue (the invocation ends after).
    response.once('finish', () => {
      handingOver.add(invocation);
      void invocation.finally(() => handingOver.delete(invocation)).catch(() => undefined);
    });
    inFlight += 1;
    try {
      await invocation;
    } finally {
      inFlight -= 1;
      if (inFlight === 0) onIdle?.();
    }
  }

  /** Resolves once no invocation runs, or after `ms`, whichever comes first. */
  function idleWithin(ms: number): Promise<void> {
    if (inFlight === 0) return Promise.resolve();
    return new Promise<void>((resolveIdle) => {
      const timer = setTimeout(done, ms);
      function done() {
        clearTimeout(timer);
        onIdle = undefined;
        resolveIdle();
      }
      onIdle = done;
    });
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

  try {
    await new Promise<void>((resolveListen, reject) => {
      server.once('error', reject);
      server.listen(options.port, options.hostname ?? '127.0.0.1', () => resolveListen());
    });
  } catch (error) {
    usageQueue.close();
    await backend.shutdown();
    if ((error as { code?: string }).code === 'EADDRINUSE') {
      throw new LocalHostError(`Port ${options.port} is already in use. Stop what uses it, or start on another port: PORT=${options.port + 1} npm start`);
    }
    if (['EADDRNOTAVAIL', 'ENOTFOUND', 'EAI_AGAIN'].includes((error as { code?: string }).code ?? '')) {
      throw new LocalHostError(`Cannot listen on HOST=${options.hostname ?? ''}: it is not an address of this machine. Use 127.0.0.1 (the default), or 0.0.0.0 for every interface.`, { wrongOption: 'hostname' });
    }
    throw error;
  }
  const { port, address } = server.address() as AddressInfo;
  const url = reachableUrl(address, port);
  await writeHostFile(dataDir, { url, pid: process.pid, adminToken });

  return {
    url,
    port,
    dataDir,
    startedEmpty,
    store: backend,
    invokeAdmin: (event) => admin(event, lambdaContext('admin')),
    consoleSignInLink: (member) => consoleHost.signInLink(url, member),
    async drainUsage() {
      await Promise.allSettled([...handingOver]);
      await usageQueue.drain();
    },
    requestsInFlight: () => inFlight,
    async close(closeOptions = {}) {
      await rm(hostFilePath(dataDir), { force: true });
      // No new connection; idle keep-alive ones go now, those answering a request once it has been answered.
      const closed = new Promise<void>((resolveClose) => server.close(() => resolveClose()));
      server.closeIdleConnections();
      await idleWithin(closeOptions.graceMs ?? SHUTDOWN_GRACE_MS);
      const cutOff = inFlight;
      server.closeAllConnections();
      await closed;
      await usageQueue.drain();
      usageQueue.close();
      await backend.shutdown();
      return { cutOff };
    },
  };
}

/** A body that sends nothing for this long (shorter than its Content-Length, say) is given up on with 408. */
const BODY_STALL_MS = 10_000;

/** The whole body, or why not: larger than a function URL takes, or stalled for `stallMs`. */
function readBody(request: IncomingMessage, stallMs: number): Promise<Buffer | 'too-large' | 'stalled'> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let stall = setTimeout(() => resolve('stalled'), stallMs);
    request.on('data', (chunk: Buffer) => {
      clearTimeout(stall);
      stall = setTimeout(() => resolve('stalled'), stallMs);
      size += chunk.length;
      if (size > MAX_LOCAL_BODY_BYTES) {
        clearTimeout(stall);
        request.removeAllListeners('data');
        request.resume();
        return resolve('too-large');
      }
      chunks.push(chunk);
    });
    request.once('end', () => {
      clearTimeout(stall);
      resolve(Buffer.concat(chunks));
    });
    request.once('error', () => {
      clearTimeout(stall);
      resolve('stalled');
    });
  });
}

function sendJson(response: ServerResponse, status: number, payload: unknown): void {
  const body = JSON.stringify(payload);
  response.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) }).end(body);
}

/**
 * A handler that throws before answering gets what a function URL gives: 502 and a terse body. A provider's
 * answer that broke off after its head (the body of a relayed audio, video or file) is no failure of the
 * handler: metered as failed and said on the request's line, it prints no stack.
 */
function failRequest(response: ServerResponse, error: unknown): void {
  const upstreamBrokeOff = response.headersSent && error instanceof GatewayError && error.kind === 'upstream';
  if (!upstreamBrokeOff) console.error('local host: handler failed', error);
  if (!response.headersSent) sendJson(response, 502, { message: 'Internal Server Error' });
  else response.destroy();
}

/**
 * The URL clients on this machine (the admin CLI through host.json, sign-in links) reach the host at: its
 * address, or loopback when it listens on every interface.
 */
export function reachableUrl(address: string, port: number): string {
  if (address === '0.0.0.0' || address === '::') return `http://127.0.0.1:${port}`;
  return address.includes(':') ? `http://[${address}]:${port}` : `http://${address}:${port}`;
}
