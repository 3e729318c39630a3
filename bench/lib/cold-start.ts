import { mkdtemp, readdir, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { build } from 'esbuild';
import { NODE, PROJECT_ROOT, runToEnd } from './processes.ts';
import { median, percentile } from './stats.ts';

export interface ColdStartFigure {
  handler: string;
  bundleBytes: number;
  /** Median and spread of the in-process `await import(bundle)` time, ms. */
  importMs: { median: number; min: number; max: number; p90: number };
  /** Wall time of the whole `node -e` process (Node's own start-up included), median ms. */
  processMs: number;
  runs: number;
}

/** What the Lambda runtime provides at import: middy's streaming mode calls awslambda.streamifyResponse then. */
const PRELOAD = `globalThis.awslambda = { streamifyResponse: (f) => f, HttpResponseStream: { from: (s) => s } };\n`;

/** The environment the handlers read at import, as in AWS (values need only be well formed). */
const HANDLER_ENV: Record<string, string> = {
  AWS_REGION: 'us-east-1',
  GATEWAY_USAGE_SINK: 'sqs',
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

/** Bundles every function and imports each bundle `runs` times, each in a fresh process. */
export async function measureColdStarts(runs: number): Promise<ColdStartFigure[]> {
  const outdir = await mkdtemp(join(tmpdir(), 'gateway-bench-bundles-'));
  try {
    const preload = join(outdir, 'awslambda-stub.mjs');
    await writeFile(preload, PRELOAD);
    const handlers = (await readdir(join(PROJECT_ROOT, 'functions'), { withFileTypes: true })).filter((entry) => entry.isDirectory()).map((entry) => entry.name).sort();
    const figures: ColdStartFigure[] = [];
    for (const handler of handlers) {
      const file = await bundle(handler, outdir);
      const bundleBytes = (await stat(file)).size;
      await timeImport(file, preload); // first run warms the file cache
      const samples: Array<{ importMs: number; processMs: number }> = [];
      for (let run = 0; run < runs; run += 1) samples.push(await timeImport(file, preload));
      const imports = samples.map((sample) => sample.importMs);
      figures.push({
        handler: basename(dirname(file)),
        bundleBytes,
        importMs: { median: median(imports), min: Math.min(...imports), max: Math.max(...imports), p90: percentile(imports, 90) },
        processMs: median(samples.map((sample) => sample.processMs)),
        runs,
      });
    }
    return figures;
  } finally {
    await rm(outdir, { recursive: true, force: true });
  }
}
