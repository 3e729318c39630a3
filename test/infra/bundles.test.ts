import { spawnSync } from 'node:child_process';
import { cpSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { HANDLER_FILE } from '../../infra/bundling/bundle-handler.ts';
import { coldStartBytes as coldStartBytesOf, coldStartFiles as coldStartFilesOf } from '../../infra/bundling/cold-start-files.ts';
import { routeGroups } from '../../shared/http/route-groups.ts';
import { temporaryDirectory } from '../support/temporary-directories.ts';
import { logicalId, resourcesOfType, synthesizeGateway, type SynthesizedGateway } from './synth-gateway.ts';

/**
 * What a route group's cold start holds of the AWS SDK: its SigV4 signer, DynamoDB's marshaller and the
 * credential chain's entry (~40 KB minified). Its calls to DynamoDB and Secrets Manager are the gateway's
 * own signed JSON calls (docs/decisions/aws-json-calls.md); the SDK's clients for them were ~215 KB.
 */
const AWS_SDK_AT_COLD_START = 48 * 1024;
/**
 * A route group's own code (the benchmark issue's budget was 400 KB: cold start grows with it), plus the
 * AWS SDK's clients. What is not needed at a cold start loads on first use: the model list, the endpoints
 * beyond chat, and the wire protocols the group's own endpoints do not speak (Bedrock's, and Anthropic's or
 * OpenAI's), which took ~60 KB out of each model-calling route group, and zod's compiler and JSON Schema
 * reader, which no gateway code calls (~45 KB; docs/decisions/infrastructure.md).
 */
const ROUTE_GROUP_HANDLER_BUDGET = 320 * 1024 + AWS_SDK_AT_COLD_START;
/**
 * The tool bridge is the MCP SDK's client, server and transports (~120 KB minified, its JSON Schema
 * validator already swapped for the light one) and the upstream address check (ipaddr.js) on top of what
 * every route group holds (docs/decisions/mcp-bridge.md).
 */
const handlerBudgetOf = (prefix: string) => (prefix === 'RouteGroupmcp' ? 384 * 1024 + AWS_SDK_AT_COLD_START : ROUTE_GROUP_HANDLER_BUDGET);
/** The writer, the compactor, the console and admin: since S3's objects are signed calls too, the route groups' budget. */
const OTHER_FUNCTION_BUDGET = ROUTE_GROUP_HANDLER_BUDGET;
const routeGroupFunctions = routeGroups.map((group) => `RouteGroup${group.name}`);
const allFunctions = [...routeGroupFunctions, 'Writer', 'Admin', 'UsageCompactionCompactor', 'ConsoleApi'];

let gateway: SynthesizedGateway;
let smokeDirectory: string;
beforeAll(() => {
  gateway = synthesizeGateway();
  // Outside the project: a bundle that imported a package instead of holding it would fail to load here.
  smokeDirectory = temporaryDirectory('gateway-bundle-smoke-');
});

function assetDirectory(functionPrefix: string): string {
  const id = logicalId(gateway.template, 'AWS::Lambda::Function', functionPrefix);
  const code = resourcesOfType(gateway.template, 'AWS::Lambda::Function')[id]?.Properties.Code as { S3Key: string };
  return join(gateway.outdir, `asset.${code.S3Key.replace(/\.zip$/, '')}`);
}

function files(directory: string): string[] {
  return readdirSync(directory, { recursive: true, encoding: 'utf8' }).filter((path) => statSync(join(directory, path)).isFile());
}

/** What a function's cold start loads (infra/bundling/cold-start-files.ts). */
const coldStartFiles = (directory: string) => coldStartFilesOf(join(directory, HANDLER_FILE));
const coldStartBytes = (directory: string) => coldStartBytesOf(join(directory, HANDLER_FILE));

function coldStartText(functionPrefix: string): string {
  return [...coldStartFiles(assetDirectory(functionPrefix))].map((path) => readFileSync(path, 'utf8')).join('\n');
}

/** The AWS services whose SDK clients a function's cold start loads, by the namespace of their modelled shapes (`com.amazonaws.dynamodb`). */
function sdkServicesAtColdStart(functionPrefix: string): string[] {
  return [...new Set(coldStartText(functionPrefix).match(/com\.amazonaws\.[a-z0-9]+/g) ?? [])].map((namespace) => namespace.slice('com.amazonaws.'.length)).sort();
}

/**
 * Node's own modules that importing a function's bundle loads, in a fresh process as a cold start is
 * (`process.moduleLoadList`, where undici shows once one of its globals is touched).
 */
function builtinsLoadedAtColdStart(functionPrefix: string): string[] {
  const copy = join(smokeDirectory, `fresh-${functionPrefix}`);
  cpSync(assetDirectory(functionPrefix), copy, { recursive: true });
  const bundle = pathToFileURL(join(copy, 'index.mjs')).href;
  const script = [
    'globalThis.awslambda = { streamifyResponse: (f) => f, HttpResponseStream: { from: (s) => s } };',
    `await import(${JSON.stringify(bundle)});`,
    'console.log(JSON.stringify(process.moduleLoadList));',
  ].join(' ');
  const run = spawnSync(process.execPath, ['--input-type=module', '-e', script], {
    cwd: smokeDirectory,
    encoding: 'utf8',
    env: { ...process.env, AWS_REGION: 'us-east-1', GATEWAY_USAGE_QUEUE_URL: 'https://sqs.us-east-1.amazonaws.com/123456789012/usage', POWERTOOLS_LOG_LEVEL: 'SILENT' },
  });
  expect(run.status, `${functionPrefix}: ${run.stderr}`).toBe(0);
  return JSON.parse(run.stdout.trim().split('\n').at(-1) ?? '[]') as string[];
}

describe('function bundles', () => {
  it('records each handler size and keeps route-group handlers within 320 KB and the AWS SDK clients (the tool bridge within 384 KB and them)', () => {
    const sizes = new Map(allFunctions.map((prefix) => [prefix, coldStartBytes(assetDirectory(prefix))]));
    console.log(
      'handler bundle sizes (minified index.mjs and the chunks it imports statically):',
      [...sizes].map(([name, bytes]) => `${name} ${(bytes / 1024).toFixed(1)} KB`).join(', '),
    );
    for (const prefix of routeGroupFunctions) expect(sizes.get(prefix), prefix).toBeLessThanOrEqual(handlerBudgetOf(prefix));
    // The other functions have no budget of their own; they stay in the same range.
    for (const prefix of ['Writer', 'Admin', 'UsageCompactionCompactor', 'ConsoleApi']) expect(sizes.get(prefix), prefix).toBeLessThanOrEqual(OTHER_FUNCTION_BUDGET);
  });

  it('loads the editor profile of the legacy /v1 route, the Responses routes, the tokenizer, the usage queue client and the generation lookups in chunks on first use, not at cold start', () => {
    const directory = assetDirectory('RouteGroupopenai');
    const lazy = files(directory).filter((path) => /^chunks[\\/](editor-chat-completions|responses-routes|o200k_base|sqs-usage-sink|s3-usage-spill|dynamo-usage-ledger)-.*\.mjs$/.test(path));
    expect(lazy).toHaveLength(6);
    const coldStart = coldStartFiles(directory);
    for (const path of lazy) expect(coldStart.has(join(directory, path)), path).toBe(false);
  });

  it('keeps the endpoints beyond chat out of the cold start of the OpenAI route group, in a chunk loaded on first use', () => {
    const directory = assetDirectory('RouteGroupopenai');
    const lazy = files(directory).find((path) => /^chunks[\\/]model-api-routes-.*\.mjs$/.test(path));
    expect(lazy).toBeDefined();
    expect(coldStartFiles(directory).has(join(directory, lazy as string))).toBe(false);
    expect(coldStartFiles(directory).size).toBeGreaterThan(1);
    expect(coldStartText('RouteGroupopenai')).toMatch(/import\("\.\/(chunks\/)?model-api-routes-/);
  });

  it("holds a function's whole cold start in its handler and one chunk: each file more is one more module for Node to load", () => {
    for (const prefix of allFunctions) expect(coldStartFiles(assetDirectory(prefix)).size, prefix).toBeLessThanOrEqual(2);
  });

  it('loads the wire protocols a route group does not speak itself on first use, in chunks of their own', () => {
    const lazyProtocols: Record<string, string[]> = {
      RouteGroupopenai: ['anthropic-messages', 'openai-responses', 'bedrock-anthropic-messages', 'bedrock-converse'],
      RouteGroupmessages: ['openai-chat', 'openai-responses', 'bedrock-anthropic-messages', 'bedrock-converse'],
    };
    for (const [prefix, protocols] of Object.entries(lazyProtocols)) {
      const directory = assetDirectory(prefix);
      const coldStart = coldStartFiles(directory);
      for (const protocol of protocols) {
        const chunk = files(directory).find((path) => new RegExp(`^chunks[\\\\/]${protocol}-protocol-.*\\.mjs$`).test(path));
        expect(chunk, `${prefix} ${protocol}`).toBeDefined();
        expect(coldStart.has(join(directory, chunk as string)), `${prefix} ${protocol}`).toBe(false);
      }
    }
  });

  it('keeps the tokenizer out of the handler, in a chunk loaded on first use', () => {
    const openAi = files(assetDirectory('RouteGroupopenai'));
    expect(openAi).toContain('index.mjs');
    expect(openAi.some((path) => /^chunks[\\/]o200k_base-.*\.mjs$/.test(path))).toBe(true);
    expect(files(assetDirectory('Writer')).some((path) => /o200k_base/.test(path))).toBe(false);
  });

  it("imports the model-calling route groups without loading Node's undici (fetch, Response, Headers) or the event-stream codec only Bedrock needs", () => {
    // undici is loaded by the first touch of one of its globals.
    for (const prefix of routeGroupFunctions.filter((name) => name !== 'RouteGroupmcp')) {
      expect(builtinsLoadedAtColdStart(prefix).filter((name) => name.includes('undici')), prefix).toEqual([]);
      // The codec's frame check (@smithy/eventstream-codec) sits in a chunk Bedrock's decoder imports on first use.
      expect(coldStartText(prefix), prefix).not.toContain('The prelude checksum');
    }
  });

  it("loads no AWS SDK client at any function's cold start: DynamoDB, Secrets Manager and S3's objects are signed calls, S3's listing (the compactor) and Athena (the console) load on first use", () => {
    for (const prefix of allFunctions) expect(sdkServicesAtColdStart(prefix), prefix).toEqual([]);
  });

  it("loads no SDK wire protocol at a cold start, not even the ones the lazily loaded clients speak (S3's XML, STS's query)", () => {
    const protocolsAtColdStart = (prefix: string) => [...new Set(coldStartText(prefix).match(/aws\.protocols#\w+/g) ?? [])].map((trait) => trait.slice('aws.protocols#'.length)).sort();
    for (const prefix of allFunctions) expect(protocolsAtColdStart(prefix), prefix).toEqual([]);
    // What the check reads is there: the lazily loaded S3 client's chunk names its protocol.
    expect(files(assetDirectory('UsageCompactionCompactor')).map((path) => readFileSync(join(assetDirectory('UsageCompactionCompactor'), path), 'utf8')).join('\n')).toMatch(/aws\.protocols#restXml/);
  });

  it("loads the MCP SDK's client (its Streamable HTTP transport and OAuth helpers) on the tool bridge's first upstream connection, not at its cold start", () => {
    const directory = assetDirectory('RouteGroupmcp');
    const clientChunks = files(directory).filter((path) => readFileSync(join(directory, path), 'utf8').includes('Server returned 401 after successful authentication'));
    expect(clientChunks.length).toBeGreaterThan(0);
    expect(coldStartText('RouteGroupmcp')).not.toContain('Server returned 401 after successful authentication');
  });

  it("gives the MCP SDK the light JSON Schema validator instead of Ajv's", () => {
    const bridge = coldStartText('RouteGroupmcp');
    expect(bridge).not.toMatch(/ajv\.js\.org|strictSchema/);
    expect(bridge).toContain('shortcircuit');
  });

  it("leaves zod's compile and fromJSONSchema out of every bundle, which no gateway code calls", () => {
    const bundleText = (prefix: string) => files(assetDirectory(prefix)).map((path) => readFileSync(join(assetDirectory(prefix), path), 'utf8')).join('\n');
    for (const prefix of allFunctions) {
      expect(bundleText(prefix), prefix).not.toContain('this schema must use the runtime parser');
      expect(bundleText(prefix), prefix).not.toContain('External $ref is not supported, only local refs');
    }
    const sources = ['shared', 'functions'].flatMap((root) => files(root).filter((path) => path.endsWith('.ts')).map((path) => readFileSync(join(root, path), 'utf8')));
    for (const source of sources) expect(source).not.toMatch(/\bz\.(compile|fromJSONSchema)\b|\bwithParser\(/);
  });

  it("imports zod as a namespace in the gateway's code, so the bundles keep only the parts of zod it calls", () => {
    const sources = ['shared', 'functions'].flatMap((root) => files(root).filter((path) => path.endsWith('.ts')).map((path) => [path, readFileSync(join(root, path), 'utf8')] as const));
    for (const [path, source] of sources) expect(source, path).not.toMatch(/import\s+(type\s+)?\{[^}]*\bz\b[^}]*\}\s+from\s+'zod'/);
  });

  it('bundles everything, the AWS SDK included: no package is imported from outside the handler', () => {
    for (const prefix of allFunctions) {
      const directory = assetDirectory(prefix);
      expect(files(directory).some((path) => path.includes('node_modules'))).toBe(false);
      for (const path of files(directory)) expect(readFileSync(join(directory, path), 'utf8'), `${prefix} ${path}`).not.toMatch(/(?:\bfrom|\bimport\(?)"@(?:aws-sdk|smithy)\//);
    }
  });

  it('produces handlers that load and run as ES modules', async () => {
    for (const prefix of ['Writer', 'UsageCompactionCompactor', 'ConsoleApi', ...routeGroupFunctions]) cpSync(assetDirectory(prefix), join(smokeDirectory, prefix), { recursive: true });
    process.env.GATEWAY_USAGE_BUCKET = 'usage-bucket';
    process.env.GATEWAY_USAGE_QUEUE_URL = 'https://sqs.us-east-1.amazonaws.com/123456789012/usage';
    process.env.POWERTOOLS_LOG_LEVEL = 'SILENT';
    const writer = (await import(pathToFileURL(join(smokeDirectory, 'Writer', 'index.mjs')).href)) as {
      handler: (event: unknown, context: unknown) => Promise<unknown>;
    };
    // A malformed record is refused by zod (bundled with its English messages only) without touching AWS.
    await expect(writer.handler({ Records: [{ messageId: 'm-1', body: '{}', attributes: { ApproximateReceiveCount: '1' } }] }, {})).resolves.toEqual({
      batchItemFailures: [{ itemIdentifier: 'm-1' }],
    });
    // The compactor refuses a malformed request (zod) before it touches S3.
    const compactor = (await import(pathToFileURL(join(smokeDirectory, 'UsageCompactionCompactor', 'index.mjs')).href)) as {
      handler: (event: unknown, context: unknown) => Promise<unknown>;
    };
    await expect(compactor.handler({ from: 'yesterday' }, {})).rejects.toThrow(/from/);
    // The console API answers an anonymous request with 401 before reading its sign-in settings (no AWS call).
    process.env.GATEWAY_CONSOLE_SITE_BUCKET = 'console-bucket';
    process.env.GATEWAY_ATHENA_WORKGROUP = 'usage-workgroup';
    const consoleApi = (await import(pathToFileURL(join(smokeDirectory, 'ConsoleApi', 'index.mjs')).href)) as {
      handler: (event: unknown, context: unknown) => Promise<{ statusCode: number }>;
    };
    const anonymous = { rawPath: '/console/api/me', headers: {}, requestContext: { http: { method: 'GET', sourceIp: '203.0.113.9' } } };
    await expect(consoleApi.handler(anonymous, {})).resolves.toMatchObject({ statusCode: 401 });
    // Response streaming needs the runtime's `awslambda` global; a pass-through stands in for it.
    Object.assign(globalThis, { awslambda: { streamifyResponse: (handler: unknown) => handler, HttpResponseStream: { from: (stream: unknown) => stream } } });
    for (const prefix of routeGroupFunctions) {
      const routeGroup = (await import(pathToFileURL(join(smokeDirectory, prefix, 'index.mjs')).href)) as { handler: unknown };
      expect(typeof routeGroup.handler, prefix).toBe('function');
    }
  });
});
