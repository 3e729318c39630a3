import { mkdtemp, readdir, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { build } from 'esbuild';
import { coldStartBytes } from '../../infra/bundling/cold-start-files.ts';
import { NODE, PROJECT_ROOT, runToEnd } from './processes.ts';
import { FIRST_REQUESTS, INIT_PRELOAD, startFirstRequestWorld, timeInit, type FirstRequestWorld, type InitTimes } from './first-request.ts';
import { median, percentile } from './stats.ts';

export interface ColdStartFigure {
  handler: string;
  /** The handler's entry file (index.mjs); lazily loaded chunks are not counted. */
  bundleBytes: number;
  /** Median and spread of the in-process `await import(bundle)` time, ms. */
  importMs: { median: number; min: number; max: number; p90: number };
  /** Wall time of the whole `node -e` process (Node's own start-up included), median ms. */
  processMs: number;
  runs: number;
  /**
   * As deployed, for the route groups whose first request is served offline here (first-request.ts):
   * import plus the first request in a fresh process (Lambda's init and first invocation), median ms.
   */
  init?: { importMs: number; answerMs: number; firstRequestMs: number; totalMs: { median: number; min: number; max: number } };
}

/** What the Lambda runtime provides at import: middy's streaming mode calls awslambda.streamifyResponse then. */
const PRELOAD = `globalThis.awslambda = { streamifyResponse: (f) => f, HttpResponseStream: { from: (s) => s } };\n`;

/** The environment the handlers read at import, as in AWS (values need only be well formed). */
const HANDLER_ENV: Record<string, string> = {
  AWS_REGION: 'us-east-1',
  GATEWAY_USAGE_QUEUE_URL: 'https://sqs.us-east-1.amazonaws.com/123456789012/gateway-usage',
  GATEWAY_USAGE_ARCHIVE: 's3',
  GATEWAY_USAGE_BUCKET: 'gateway-usage-bench',
  POWERTOOLS_LOG_LEVEL: 'SILENT',
};

// ESM output has no `require`; bundled CommonJS dependencies that require Node built-ins need one.
const REQUIRE_BANNER = "import { createRequire as __benchCreateRequire } from 'node:module'; const require = __benchCreateRequire(import.meta.url);";

/** Bundles functions/<name>/handler.ts as one minified ESM file (gpt-tokenizer stays outside: it is installed beside the bundle). */
async function bundle(handler: string, outdir: string): Promise<string> {
  const outfile = join(outdir, handler, 'index.mjs');
  await build({
    entryPoints: [join(PROJECT_ROOT, 'functions', handler, 'handler.ts')],
    outfile,
    bundle: true,
    minify: true,
    platform: 'node',
    format: 'esm',
    target: 'node24',
    external: ['gpt-tokenizer'],
    banner: { js: REQUIRE_BANNER },
    legalComments: 'none',
    logLevel: 'error',
  });
  return outfile;
}

async function timeImport(bundleFile: string, preload: string): Promise<{ importMs: number; processMs: number }> {
  const script = `const t = performance.now(); await import(${JSON.stringify(bundleFile)}); console.log(JSON.stringify({ importMs: performance.now() - t }));`;
  const started = performance.now();
  const out = await runToEnd(NODE, ['--import', preload, '--input-type=module', '-e', script], { env: HANDLER_ENV, cwd: dirname(bundleFile) });
  const processMs = performance.now() - started;
  const line = out.trim().split('\n').at(-1) ?? '{}';
  return { importMs: (JSON.parse(line) as { importMs: number }).importMs, processMs };
}

type Bundler = (handler: string, outdir: string) => Promise<string>;

/** The deployment's own bundler (infra/bundling/bundle-handler.ts), when the project has one. */
async function deployedBundler(): Promise<Bundler | string> {
  try {
    const module = (await import(join(PROJECT_ROOT, 'infra', 'bundling', 'bundle-handler.ts'))) as {
      bundleHandler?: (entry: string, outdir: string) => Promise<unknown>;
      HANDLER_FILE?: string;
    };
    const bundleHandler = module.bundleHandler;
    if (typeof bundleHandler !== 'function') return 'infra/bundling/bundle-handler.ts has no bundleHandler()';
    return async (handler, outdir) => {
      const target = join(outdir, handler);
      await bundleHandler(join('functions', handler, 'handler.ts'), target);
      return join(target, module.HANDLER_FILE ?? 'index.mjs');
    };
  } catch (error) {
    return `the deployment bundler could not be loaded: ${error instanceof Error ? error.message.split('\n')[0] : String(error)}`;
  }
}

async function measureWith(bundler: Bundler, runs: number, world?: FirstRequestWorld): Promise<ColdStartFigure[]> {
  const outdir = await mkdtemp(join(tmpdir(), 'gateway-bench-bundles-'));
  try {
    // The self-contained bundles leave gpt-tokenizer outside: it resolves from the project's modules.
    await symlink(join(PROJECT_ROOT, 'node_modules'), join(outdir, 'node_modules'), 'dir');
    const preload = join(outdir, 'awslambda-stub.mjs');
    await writeFile(preload, PRELOAD);
    const initPreload = join(outdir, 'awslambda-init-stub.mjs');
    await writeFile(initPreload, INIT_PRELOAD);
    const handlers = (await readdir(join(PROJECT_ROOT, 'functions'), { withFileTypes: true })).filter((entry) => entry.isDirectory()).map((entry) => entry.name).sort();
    const figures: ColdStartFigure[] = [];
    for (const handler of handlers) {
      const file = await bundler(handler, outdir);
      // What a cold start loads: the handler file and the chunk(s) it imports statically.
      const bundleBytes = coldStartBytes(file);
      await timeImport(file, preload); // the first run warms the file cache
      const samples: Array<{ importMs: number; processMs: number }> = [];
      for (let run = 0; run < runs; run += 1) samples.push(await timeImport(file, preload));
      const imports = samples.map((sample) => sample.importMs);
      figures.push({
        handler,
        bundleBytes,
        importMs: { median: median(imports), min: Math.min(...imports), max: Math.max(...imports), p90: percentile(imports, 90) },
        processMs: median(samples.map((sample) => sample.processMs)),
        runs,
        ...(world ? await measureInit(file, initPreload, world, handler, runs) : {}),
      });
    }
    return figures;
  } finally {
    await rm(outdir, { recursive: true, force: true });
  }
}

async function measureInit(file: string, preload: string, world: FirstRequestWorld, handler: string, runs: number): Promise<Pick<ColdStartFigure, 'init'>> {
  const request = FIRST_REQUESTS[handler];
  if (!request) return {};
  await timeInit(file, preload, world, request);
  const samples: InitTimes[] = [];
  for (let run = 0; run < runs; run += 1) samples.push(await timeInit(file, preload, world, request));
  const totals = samples.map((sample) => sample.importMs + sample.firstRequestMs);
  return {
    init: {
      importMs: median(samples.map((sample) => sample.importMs)),
      answerMs: median(samples.map((sample) => sample.answerMs)),
      firstRequestMs: median(samples.map((sample) => sample.firstRequestMs)),
      totalMs: { median: median(totals), min: Math.min(...totals), max: Math.max(...totals) },
    },
  };
}

export interface ColdStartResults {
  /** One self-contained file per function (everything but gpt-tokenizer bundled): the bench's fixed method. */
  selfContained: ColdStartFigure[];
  /** As the CDK app bundles them (the AWS SDK from its ES modules, zod without its locales, lazy chunks), if the project has that bundler. */
  deployed: ColdStartFigure[] | { skipped: string };
}

/**
 * Bundles every function both ways and imports each bundle `runs` times, each in a fresh process; as
 * deployed, the route groups also serve a first request after the import (init as Lambda counts it).
 */
export async function measureColdStarts(runs: number, withDeployed: boolean): Promise<ColdStartResults> {
  const selfContained = await measureWith(bundle, runs);
  if (!withDeployed) return { selfContained, deployed: { skipped: 'not in quick mode' } };
  const deployedBundle = await deployedBundler();
  if (typeof deployedBundle === 'string') return { selfContained, deployed: { skipped: deployedBundle } };
  const world = await startFirstRequestWorld();
  try {
    const deployed = await measureWith(deployedBundle, runs, world).catch((error: unknown) => ({ skipped: String(error) }));
    return { selfContained, deployed };
  } finally {
    await world.close();
  }
}
