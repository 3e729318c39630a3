import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PROJECT_ROOT } from '../../infra/bundling/handler-code.ts';
import { routeGroups } from '../../infra/route-groups.ts';
import { logicalId, resourcesOfType, synthesizeGateway, type SynthesizedGateway } from './synth-gateway.ts';

/**
 * The benchmark issue's budget for a route group's handler file (400 KB: cold start grows with it), plus the
 * ~16 KB of Bedrock's two runtime protocols and its event-stream decoding, which every model-calling route
 * group carries (docs/decisions/bedrock.md), plus 8 KB for what the generation path gained after it was set
 * and every route group needs (custom tools for chat-only providers, docs/decisions/custom-tools.md; Anthropic
 * request ids; the stricter names and error words). What is not needed at a cold start loads on first use (the
 * model list, the endpoints beyond chat); the next saving is loading the wire protocols a
 * target does not use on first use too (docs/performance.md, next steps).
 */
const ROUTE_GROUP_HANDLER_BUDGET = 424 * 1024;
/**
 * The tool bridge is the MCP SDK's client, server and transports (~120 KB minified, its JSON Schema
 * validator already swapped for the light one) and the upstream address check (ipaddr.js) on top of what
 * every route group holds (docs/decisions/mcp-bridge.md).
 */
const handlerBudgetOf = (prefix: string) => (prefix === 'RouteGroupmcp' ? 440 * 1024 : ROUTE_GROUP_HANDLER_BUDGET);
const routeGroupFunctions = routeGroups.map((group) => `RouteGroup${group.name}`);
const allFunctions = [...routeGroupFunctions, 'Writer', 'Admin', 'UsageCompactionCompactor', 'ConsoleApi'];

let gateway: SynthesizedGateway;
let smokeDirectory: string;
beforeAll(() => {
  gateway = synthesizeGateway();
  // Inside the project, so that the runtime-provided AWS SDK resolves from node_modules as it does in Lambda.
  const cache = join(PROJECT_ROOT, 'node_modules', '.cache');
  smokeDirectory = mkdtempSync(join(existsSync(cache) ? cache : PROJECT_ROOT, 'gateway-bundle-smoke-'));
});
afterAll(() => rmSync(smokeDirectory, { recursive: true, force: true }));

function assetDirectory(functionPrefix: string): string {
  const id = logicalId(gateway.template, 'AWS::Lambda::Function', functionPrefix);
  const code = resourcesOfType(gateway.template, 'AWS::Lambda::Function')[id]?.Properties.Code as { S3Key: string };
  return join(gateway.outdir, `asset.${code.S3Key.replace(/\.zip$/, '')}`);
}

function files(directory: string): string[] {
  return readdirSync(directory, { recursive: true, encoding: 'utf8' }).filter((path) => statSync(join(directory, path)).isFile());
}

/** A module's static imports of the bundle's own files (`import … from"./chunks/x.mjs"`), not its `import()`s. */
const STATIC_IMPORT = /(?:from|import)\s*"(\.\.?\/[^"]+\.mjs)"/g;

/**
 * What a cold start loads: index.mjs and every chunk it imports statically, transitively (esbuild moves
 * code that a lazily loaded chunk shares with the handler into a chunk the handler imports at once).
 */
function coldStartFiles(directory: string): Set<string> {
  const loaded = new Set<string>();
  const load = (path: string) => {
    if (loaded.has(path)) return;
    loaded.add(path);
    for (const [, relative] of readFileSync(path, 'utf8').matchAll(STATIC_IMPORT)) load(join(dirname(path), relative as string));
  };
  load(join(directory, 'index.mjs'));
  return loaded;
}

function coldStartBytes(directory: string): number {
  return [...coldStartFiles(directory)].reduce((total, path) => total + statSync(path).size, 0);
}

/**
 * What importing a function's bundle loads, in a fresh process as a cold start is: Node's own modules
 * (`process.moduleLoadList`, where undici shows once one of its globals is touched) and the paths in the
 * CommonJS module cache (where the runtime's AWS SDK lands, however imported).
 */
function loadedAtColdStart(functionPrefix: string): { builtins: string[]; packages: string[] } {
  // Beside the project's node_modules, where the runtime-provided AWS SDK resolves.
  const copy = join(smokeDirectory, `fresh-${functionPrefix}`);
  cpSync(assetDirectory(functionPrefix), copy, { recursive: true });
  const bundle = pathToFileURL(join(copy, 'index.mjs')).href;
  const script = [
    'globalThis.awslambda = { streamifyResponse: (f) => f, HttpResponseStream: { from: (s) => s } };',
    `await import(${JSON.stringify(bundle)});`,
    "const { createRequire } = await import('node:module');",
    "console.log(JSON.stringify({ builtins: process.moduleLoadList, packages: Object.keys(createRequire(process.cwd() + '/').cache) }));",
  ].join(' ');
  const run = spawnSync(process.execPath, ['--input-type=module', '-e', script], {
    cwd: PROJECT_ROOT,
    encoding: 'utf8',
    env: { ...process.env, AWS_REGION: 'us-east-1', GATEWAY_USAGE_QUEUE_URL: 'https://sqs.us-east-1.amazonaws.com/123456789012/usage', POWERTOOLS_LOG_LEVEL: 'SILENT' },
  });
  expect(run.status, `${functionPrefix}: ${run.stderr}`).toBe(0);
  return JSON.parse(run.stdout.trim().split('\n').at(-1) ?? '{}') as { builtins: string[]; packages: string[] };
}

/** The AWS SDK clients (`client-dynamodb`, …) a function's cold start loads. */
function sdkClientsAtColdStart(functionPrefix: string): string[] {
  const clients = loadedAtColdStart(functionPrefix).packages.map((path) => /node_modules[\\/]@aws-sdk[\\/](client-[^\\/]+)[\\/]/.exec(path)?.[1]);
  return [...new Set(clients.filter((client) => client !== undefined))].sort();
}

describe('function bundles', () => {
  it('records each handler size and keeps route-group handlers within 424 KB (the tool bridge within 440 KB)', () => {
    const sizes = new Map(allFunctions.map((prefix) => [prefix, coldStartBytes(assetDirectory(prefix))]));
    console.log(
      'handler bundle sizes (minified index.mjs and the chunks it imports statically):',
      [...sizes].map(([name, bytes]) => `${name} ${(bytes / 1024).toFixed(1)} KB`).join(', '),
    );
    for (const prefix of routeGroupFunctions) expect(sizes.get(prefix), prefix).toBeLessThanOrEqual(handlerBudgetOf(prefix));
    // The other functions have no budget of their own; they stay in the same range.
    for (const prefix of ['Writer', 'Admin', 'UsageCompactionCompactor', 'ConsoleApi']) expect(sizes.get(prefix), prefix).toBeLessThanOrEqual(ROUTE_GROUP_HANDLER_BUDGET);
  });

  it('loads the editor profile of the legacy /v1 route, the tokenizer, the usage queue client and the generation lookups in chunks on first use, not at cold start', () => {
    const directory = assetDirectory('RouteGroupopenai');
    const lazy = files(directory).filter((path) => /^chunks[\\/](editor-chat-completions|o200k_base|sqs-usage-sink|s3-usage-spill|dynamo-usage-ledger)-.*\.mjs$/.test(path));
    expect(lazy).toHaveLength(5);
    const coldStart = coldStartFiles(directory);
    for (const path of lazy) expect(coldStart.has(join(directory, path)), path).toBe(false);
  });

  it('keeps the endpoints beyond chat out of the cold start of the OpenAI route group, in a chunk loaded on first use', () => {
    const directory = assetDirectory('RouteGroupopenai');
    const lazy = files(directory).find((path) => /^chunks[\\/]model-api-routes-.*\.mjs$/.test(path));
    expect(lazy).toBeDefined();
    expect(coldStartFiles(directory).has(join(directory, lazy as string))).toBe(false);
    expect(coldStartFiles(directory).size).toBeGreaterThan(1);
    expect(readFileSync(join(directory, 'index.mjs'), 'utf8')).toMatch(/import\("\.\/chunks\/model-api-routes-/);
  });

  it('keeps the tokenizer out of the handler, in a chunk loaded on first use', () => {
    const openAi = files(assetDirectory('RouteGroupopenai'));
    expect(openAi).toContain('index.mjs');
    expect(openAi.some((path) => /^chunks[\\/]o200k_base-.*\.mjs$/.test(path))).toBe(true);
    expect(files(assetDirectory('Writer'))).toEqual(['index.mjs']);
  });

  it("imports the model-calling route groups without loading Node's undici (fetch, Response, Headers) or the event-stream codec only Bedrock needs", () => {
    // undici is loaded by the first touch of one of its globals.
    for (const prefix of routeGroupFunctions.filter((name) => name !== 'RouteGroupmcp')) {
      const { builtins, packages } = loadedAtColdStart(prefix);
      expect([...builtins.filter((name) => name.includes('undici')), ...packages.filter((path) => path.includes('eventstream-codec'))], prefix).toEqual([]);
    }
  });

  it('loads at cold start only the AWS SDK clients a function uses at once (the compactor S3 alone, the writer no Secrets Manager, the console Athena with its first usage query)', () => {
    expect(sdkClientsAtColdStart('UsageCompactionCompactor')).toEqual(['client-s3']);
    expect(sdkClientsAtColdStart('Writer')).toEqual(['client-dynamodb', 'client-s3']);
    expect(sdkClientsAtColdStart('ConsoleApi')).toEqual(['client-dynamodb', 'client-s3', 'client-secrets-manager']);
  });

  it("gives the MCP SDK the light JSON Schema validator instead of Ajv's", () => {
    const bridge = readFileSync(join(assetDirectory('RouteGroupmcp'), 'index.mjs'), 'utf8');
    expect(bridge).not.toMatch(/ajv\.js\.org|strictSchema/);
    expect(bridge).toContain('shortcircuit');
  });

  it('leaves the AWS SDK to the runtime and bundles everything else', () => {
    for (const prefix of allFunctions) {
      expect(files(assetDirectory(prefix)).some((path) => path.includes('node_modules'))).toBe(false);
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
