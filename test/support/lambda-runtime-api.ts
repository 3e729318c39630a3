import { randomUUID } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A small Lambda Runtime API (2018-06-01) on loopback, for running a function under AWS's runtime interface
 * client: it hands out invocations on `/next` (long-polled), and receives their answers on `/response`
 * (buffered, or streamed: `Lambda-Runtime-Function-Response-Mode: streaming`, chunked, with the
 * HTTP-integration prelude and the error trailers), `/error` and `/init/error`.
 */
export const HTTP_INTEGRATION_CONTENT_TYPE = 'application/vnd.awslambda.http-integration-response';
const PRELUDE_DELIMITER = Buffer.alloc(8);
const ERROR_TYPE_TRAILER = 'lambda-runtime-function-error-type';
const ERROR_BODY_TRAILER = 'lambda-runtime-function-error-body';

/** What a function URL makes of a streamed answer: the prelude (status, headers) and the body after it. */
export interface RuntimeResponse {
  kind: 'response';
  /** The headers of the runtime's /response request (response mode, transfer encoding, content type). */
  requestHeaders: IncomingHttpHeaders;
  prelude?: { statusCode?: number; headers?: Record<string, string>; cookies?: string[] };
  body: Buffer;
  /** How many pieces the body arrived in. */
  bodyChunks: number;
  trailers: Record<string, string>;
  /** A failure after the first byte, from the trailers: the error type and the decoded error body. */
  midStreamError?: { type: string; body: unknown };
}

export interface RuntimeError {
  kind: 'error';
  type: string;
  body: unknown;
}

export interface Invocation {
  requestId: string;
  /** Settles once the runtime has sent the whole /response (or an /error): the client has its whole answer. */
  result: Promise<RuntimeResponse | RuntimeError>;
  /**
   * Settles when the runtime asks for the next invocation after this one's answer: the handler has returned
   * and the invocation is over (a streaming handler may go on working after its response ended).
   */
  ended: Promise<void>;
}

export interface RuntimeApiEmulator {
  /** `host:port`, for AWS_LAMBDA_RUNTIME_API. */
  address: string;
  /** Queues an invocation; `onBody` sees the streamed body (after the prelude) each time more arrives. */
  invoke(event: unknown, options?: { onBody?: (body: Buffer) => void; functionArn?: string }): Invocation;
  /** Errors the runtime reported while initialising (a handler that failed to load). */
  readonly initErrors: unknown[];
  close(): Promise<void>;
}

interface Pending {
  requestId: string;
  event: unknown;
  functionArn: string;
  onBody: (body: Buffer) => void;
  settle: (result: RuntimeResponse | RuntimeError) => void;
  fail: (error: Error) => void;
  end: () => void;
}

function readAll(request: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => resolve(Buffer.concat(chunks)));
    request.on('error', reject);
  });
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

function accepted(response: ServerResponse): void {
  const body = JSON.stringify({ status: 'OK' });
  response.writeHead(202, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) }).end(body);
}

/** Reads a /response request as it arrives: the prelude up to the eight NUL bytes, then the body. */
function receiveResponse(request: IncomingMessage, invocation: Pending): Promise<RuntimeResponse> {
  const integration = request.headers['content-type'] === HTTP_INTEGRATION_CONTENT_TYPE;
  let raw = Buffer.alloc(0);
  let preludeEnd = integration ? -1 : 0;
  let bodyChunks = 0;
  return new Promise((resolve, reject) => {
    request.on('data', (chunk: Buffer) => {
      raw = Buffer.concat([raw, chunk]);
      if (preludeEnd < 0) {
        const delimiter = raw.indexOf(PRELUDE_DELIMITER);
        if (delimiter < 0) return;
        preludeEnd = delimiter + PRELUDE_DELIMITER.length;
      }
      if (raw.length > preludeEnd) {
        bodyChunks += 1;
        invocation.onBody(raw.subarray(preludeEnd));
      }
    });
    request.on('error', reject);
    request.on('end', () => {
      const trailers = Object.fromEntries(Object.entries(request.trailers).map(([name, value]) => [name.toLowerCase(), String(value)]));
      const errorType = trailers[ERROR_TYPE_TRAILER];
      const errorBody = trailers[ERROR_BODY_TRAILER];
      resolve({
        kind: 'response',
        requestHeaders: request.headers,
        ...(integration && preludeEnd > 0 ? { prelude: JSON.parse(raw.subarray(0, preludeEnd - PRELUDE_DELIMITER.length).toString('utf8')) as RuntimeResponse['prelude'] } : {}),
        body: raw.subarray(Math.max(preludeEnd, 0)),
        bodyChunks,
        trailers,
        ...(errorType ? { midStreamError: { type: errorType, body: errorBody ? parseJson(Buffer.from(errorBody, 'base64').toString('utf8')) : undefined } } : {}),
      });
    });
  });
}

export async function startRuntimeApiEmulator(): Promise<RuntimeApiEmulator> {
  const queued: Pending[] = [];
  const waiting: ServerResponse[] = [];
  const inFlight = new Map<string, Pending>();
  const initErrors: unknown[] = [];
  /** Invocations answered whose handler may still be running: over at the runtime's next poll. */
  const answered: Pending[] = [];

  const deliver = (pending: Pending, response: ServerResponse) => {
    inFlight.set(pending.requestId, pending);
    const body = JSON.stringify(pending.event);
    response.writeHead(200, {
      'content-type': 'application/json',
      'content-length': Buffer.byteLength(body),
      'lambda-runtime-aws-request-id': pending.requestId,
      'lambda-runtime-deadline-ms': String(Date.now() + 300_000),
      'lambda-runtime-invoked-function-arn': pending.functionArn,
      'lambda-runtime-trace-id': `Root=1-${Math.floor(Date.now() / 1000).toString(16)}-${randomUUID().replaceAll('-', '').slice(0, 24)};Parent=${randomUUID().replaceAll('-', '').slice(0, 16)};Sampled=0`,
    });
    response.end(body);
  };

  const server = createServer((request, response) => {
    const path = request.url ?? '';
    if (request.method === 'GET' && path === '/2018-06-01/runtime/invocation/next') {
      for (const pending of answered.splice(0)) pending.end();
      const next = queued.shift();
      if (next) deliver(next, response);
      else waiting.push(response);
      return;
    }
    const match = /^\/2018-06-01\/runtime\/invocation\/([^/]+)\/(response|error)$/.exec(path);
    if (request.method === 'POST' && match) {
      const pending = inFlight.get(decodeURIComponent(match[1] ?? ''));
      if (!pending) return void response.writeHead(400).end();
      inFlight.delete(pending.requestId);
      if (match[2] === 'response') {
        receiveResponse(request, pending).then(
          (result) => {
            accepted(response);
            answered.push(pending);
            pending.settle(result);
          },
          (error: Error) => pending.fail(error),
        );
      } else {
        void readAll(request).then((body) => {
          accepted(response);
          answered.push(pending);
          pending.settle({ kind: 'error', type: String(request.headers['lambda-runtime-function-error-type'] ?? ''), body: parseJson(body.toString('utf8')) });
        });
      }
      return;
    }
    if (request.method === 'POST' && path === '/2018-06-01/runtime/init/error') {
      void readAll(request).then((body) => {
        initErrors.push(parseJson(body.toString('utf8')));
        accepted(response);
        for (const pending of queued.splice(0)) pending.fail(new Error(`the function failed to initialise: ${body.toString('utf8')}`));
      });
      return;
    }
    response.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  return {
    address: `127.0.0.1:${port}`,
    initErrors,
    invoke(event, options = {}) {
      const requestId = randomUUID();
      let settle: Pending['settle'] = () => {};
      let fail: Pending['fail'] = () => {};
      const result = new Promise<RuntimeResponse | RuntimeError>((resolve, reject) => {
        settle = resolve;
        fail = reject;
      });
      let end: () => void = () => {};
      const ended = new Promise<void>((resolve) => (end = resolve));
      const functionArn = options.functionArn ?? 'arn:aws:lambda:us-east-1:123456789012:function:gateway';
      const pending: Pending = { requestId, event, functionArn, onBody: options.onBody ?? (() => {}), settle, fail, end };
      if (initErrors.length > 0) {
        fail(new Error(`the function failed to initialise: ${JSON.stringify(initErrors[0])}`));
        return { requestId, result, ended };
      }
      const poller = waiting.shift();
      if (poller) deliver(pending, poller);
      else queued.push(pending);
      return { requestId, result, ended };
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const poller of waiting.splice(0)) poller.destroy();
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
