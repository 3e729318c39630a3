import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { LOCAL_TABLES } from '../../tools/local-host/local-environment.ts';
import { startEmbeddedStore } from '../../tools/local-host/embedded-store.ts';
import { configureBenchProject } from './gateway.ts';
import { NODE, runToEnd, startService, type Service } from './processes.ts';

/**
 * Init as Lambda counts it for a route group: importing the bundle and serving its first request (key and
 * project from DynamoDB, the provider key from the secret store, the upstream call, the answer, the usage
 * record sent to SQS before the invocation ends), each in a fresh process. What the first request needs
 * runs beside it: the embedded store seeded by the admin CLI as an operator would, the file secret store,
 * the bench's fake upstream and its fake SQS.
 */
export interface FirstRequestWorld {
  /** The environment a handler reads in AWS, pointing at the stand-ins. */
  env: Record<string, string>;
  key: string;
  close(): Promise<void>;
}

/** The first request each route group is measured with; the others have none here. */
export const FIRST_REQUESTS: Record<string, { path: string; body: string; headers?: Record<string, string> }> = {
  openai: {
    path: '/v1/chat/completions',
    body: JSON.stringify({ model: 'openai/gpt-4o-mini', messages: [{ role: 'user', content: 'Say hello.' }], max_tokens: 32 }),
  },
  // A Messages request on an OpenAI model: translated through the canonical layer both ways.
  messages: {
    path: '/v1/messages',
    body: JSON.stringify({ model: 'openai/gpt-4o-mini', messages: [{ role: 'user', content: 'Say hello.' }], max_tokens: 32 }),
    headers: { 'anthropic-version': '2023-06-01' },
  },
};

export async function startFirstRequestWorld(): Promise<FirstRequestWorld> {
  const dataDir = await mkdtemp(join(tmpdir(), 'gateway-bench-init-'));
  const services: Service[] = [];
  const closers: Array<() => Promise<void>> = [];
  const close = async () => {
    for (const closeOne of closers.reverse()) await closeOne().catch(() => undefined);
    for (const service of services) await service.stop();
    await rm(dataDir, { recursive: true, force: true });
  };
  try {
    const upstream = await startService({ name: 'init upstream', command: NODE, args: ['bench/fake-upstream.ts'], readyPattern: /listening on (\d+)/ });
    services.push(upstream);
    const sqs = await startService({ name: 'init sqs', command: NODE, args: ['bench/fake-sqs.ts'], readyPattern: /listening on (\d+)/ });
    services.push(sqs);
    // No gateway runs on this directory: the admin CLI writes to its embedded store in-process.
    const key = await configureBenchProject(dataDir, Number(upstream.ready));
    const store = await startEmbeddedStore(join(dataDir, 'dynamodb'), LOCAL_TABLES);
    closers.push(() => store.close());
    const sqsUrl = `http://127.0.0.1:${sqs.ready}`;
    return {
      key,
      env: {
        AWS_REGION: 'us-east-1',
        AWS_ACCESS_KEY_ID: 'bench',
        AWS_SECRET_ACCESS_KEY: 'bench',
        AWS_ENDPOINT_URL_SQS: sqsUrl,
        POWERTOOLS_LOG_LEVEL: 'SILENT',
        GATEWAY_KEYS_TABLE: LOCAL_TABLES.keys,
        GATEWAY_PROJECTS_TABLE: LOCAL_TABLES.projects,
        GATEWAY_GENERATIONS_TABLE: LOCAL_TABLES.generations,
        GATEWAY_COUNTERS_TABLE: LOCAL_TABLES.counters,
        GATEWAY_DYNAMODB_ENDPOINT: store.endpoint,
        GATEWAY_SECRETS_BACKEND: 'file',
        GATEWAY_SECRETS_FILE: join(dataDir, 'secrets.json'),
        GATEWAY_ALLOW_PRIVATE_UPSTREAMS: 'true',
        GATEWAY_USAGE_QUEUE_URL: `${sqsUrl}/000000000000/gateway-usage`,
      },
      close,
    };
  } catch (error) {
    await close();
    throw error;
  }
}

/** What the Lambda runtime provides: middy's streaming mode, with the prelude's status kept for the check. */
export const INIT_PRELOAD = `globalThis.awslambda = { streamifyResponse: (f) => f, HttpResponseStream: { from: (s, prelude) => { s.prelude = prelude; return s; } } };\n`;

export interface InitTimes {
  importMs: number;
  /** From the import's end until the answer's last byte was written (what the client waits for). */
  answerMs: number;
  /** From the import's end until the invocation ended (the usage record handed over after the answer). */
  firstRequestMs: number;
}

/** Imports `bundleFile` in a fresh process and serves one request with it. */
export async function timeInit(bundleFile: string, preload: string, world: FirstRequestWorld, request: (typeof FIRST_REQUESTS)[string]): Promise<InitTimes> {
  const event = {
    version: '2.0',
    routeKey: '$default',
    rawPath: request.path,
    rawQueryString: '',
    headers: { authorization: `Bearer ${world.key}`, 'content-type': 'application/json', host: 'bench.lambda-url.us-east-1.on.aws', ...request.headers },
    requestContext: {
      accountId: 'anonymous',
      apiId: 'bench',
      domainName: 'bench.lambda-url.us-east-1.on.aws',
      domainPrefix: 'bench',
      http: { method: 'POST', path: request.path, protocol: 'HTTP/1.1', sourceIp: '127.0.0.1', userAgent: 'bench' },
      requestId: 'bench-init',
      routeKey: '$default',
      stage: '$default',
      time: new Date().toUTCString(),
      timeEpoch: Date.now(),
    },
    body: request.body,
    isBase64Encoded: false,
  };
  const script = `
    const { Writable } = await import('node:stream');
    const started = performance.now();
    const { handler } = await import(${JSON.stringify(bundleFile)});
    const imported = performance.now();
    let body = '';
    let answered = 0;
    const stream = new Writable({ write(chunk, _encoding, done) { body += chunk; done(); }, final(done) { answered = performance.now(); done(); } });
    const context = { awsRequestId: 'bench-init', functionName: 'bench', getRemainingTimeInMillis: () => 60000 };
    await handler(${JSON.stringify(event)}, stream, context);
    const ended = performance.now();
    console.log(JSON.stringify({ importMs: imported - started, answerMs: answered - imported, firstRequestMs: ended - imported, status: stream.prelude?.statusCode, body: body.slice(0, 300) }));
  `;
  const out = await runToEnd(NODE, ['--import', preload, '--input-type=module', '-e', script], { env: world.env, cwd: dirname(bundleFile) });
  const result = JSON.parse(out.trim().split('\n').at(-1) ?? '{}') as InitTimes & { status?: number; body?: string };
  if (result.status !== 200) throw new Error(`the first request answered ${result.status ?? 'nothing'}: ${result.body ?? ''}`);
  return { importMs: result.importMs, answerMs: result.answerMs, firstRequestMs: result.firstRequestMs };
}
