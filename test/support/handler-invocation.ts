import { randomBytes } from 'node:crypto';
import { Writable } from 'node:stream';
import type { APIGatewayProxyEventV2, Context } from 'aws-lambda';
import { vi } from 'vitest';
import { installLambdaRuntimeEmulation } from '../../tools/local-host/lambda-runtime-emulation.ts';

/**
 * Imports a `functions/<name>/handler.ts` afresh with `environment` as its process environment, as a cold
 * start in Lambda does (handlers read their configuration at import). Streaming handlers get the
 * runtime's `awslambda` global, emulated as the local host does.
 */
export async function loadHandler<T>(entry: string, environment: Record<string, string>): Promise<T> {
  installLambdaRuntimeEmulation();
  vi.resetModules();
  for (const name of Object.keys(process.env)) if (name.startsWith('GATEWAY_')) delete process.env[name];
  Object.assign(process.env, environment);
  return ((await import(/* @vite-ignore */ new URL(`../../${entry}`, import.meta.url).href)) as { handler: T }).handler;
}

export function lambdaContext(functionName: string): Context {
  return {
    callbackWaitsForEmptyEventLoop: false,
    functionName,
    functionVersion: '$LATEST',
    invokedFunctionArn: `arn:aws:lambda:us-east-1:123456789012:function:${functionName}`,
    memoryLimitInMB: '1024',
    awsRequestId: randomBytes(16).toString('hex'),
    logGroupName: `/aws/lambda/${functionName}`,
    logStreamName: 'test',
    getRemainingTimeInMillis: () => 60_000,
    done: () => {},
    fail: () => {},
    succeed: () => {},
  };
}

export function functionUrlEvent(options: { method: string; path: string; headers?: Record<string, string>; body?: unknown }): APIGatewayProxyEventV2 {
  const [rawPath = '/', rawQueryString = ''] = options.path.split('?');
  return {
    version: '2.0',
    routeKey: '$default',
    rawPath,
    rawQueryString,
    headers: { 'content-type': 'application/json', ...options.headers },
    requestContext: {
      accountId: 'anonymous',
      apiId: 'abc123',
      domainName: 'abc123.lambda-url.us-east-1.on.aws',
      domainPrefix: 'abc123',
      http: { method: options.method, path: rawPath, protocol: 'HTTP/1.1', sourceIp: '203.0.113.9', userAgent: 'test' },
      requestId: randomBytes(8).toString('hex'),
      routeKey: '$default',
      stage: '$default',
      time: '01/Jan/2026:00:00:00 +0000',
      timeEpoch: Date.now(),
    },
    ...(options.body === undefined ? {} : { body: JSON.stringify(options.body) }),
    isBase64Encoded: false,
  };
}

/** A response stream that keeps what a streaming handler wrote: the prelude and the body. */
class CapturedResponse extends Writable {
  status = 0;
  headers: Record<string, string> = {};
  readonly chunks: Buffer[] = [];

  setPrelude(prelude: { statusCode?: number; headers?: Record<string, string> }): void {
    this.status = prelude.statusCode ?? 200;
    this.headers = prelude.headers ?? {};
  }

  override _write(chunk: Buffer, _encoding: BufferEncoding, done: () => void): void {
    this.chunks.push(Buffer.from(chunk));
    done();
  }
}

export type StreamingHandler = (event: APIGatewayProxyEventV2, stream: Writable, context: Context) => Promise<void>;

/** Runs a streaming handler on one function-URL event and returns the whole response. */
export async function invokeStreaming(handler: StreamingHandler, event: APIGatewayProxyEventV2, functionName: string) {
  const response = new CapturedResponse();
  await handler(event, response, lambdaContext(functionName));
  return { status: response.status, headers: response.headers, body: Buffer.concat(response.chunks).toString('utf8') };
}
