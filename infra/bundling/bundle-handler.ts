import { build } from 'esbuild';
import { basename } from 'node:path';
import { pathToFileURL } from 'node:url';
import { coldStartInOneChunk } from './cold-start-chunk.ts';
import { nodeBuiltinsWithoutFacades } from './node-builtins.ts';
import { englishOnlyZodLocales, lightMcpSchemaValidator, zodWithoutUnusedTools } from './package-trims.ts';
import { sdkImportsPastBarrels } from './sdk-barrel-imports.ts';

/**
 * Bundles one `functions/<group>/handler.ts` into an ESM asset for the Node.js 24 runtime on arm64:
 * `index.mjs` (the handler) plus lazily loaded chunks. Run as a child process by the CDK app
 * (infra/bundling/handler-code.ts), because CDK's bundling hook is synchronous and esbuild plugins
 * need the asynchronous API. Why each option: docs/decisions/infrastructure.md.
 */
export const HANDLER_FILE = 'index.mjs';

/**
 * The AWS SDK is bundled from its ES modules (`module` before `main`), not taken from the runtime: esbuild
 * then keeps only what the clients in use reach, and a cold start compiles one minified file set instead of
 * resolving and compiling the runtime's CommonJS packages (~131 → ~104 ms import for the OpenAI route group;
 * docs/decisions/infrastructure.md). The deployed SDK is also the lock file's, the one the tests ran.
 */
const SDK_AS_ES_MODULES = ['module', 'main'];

// ESM output has no `require`; bundled CommonJS dependencies that require Node built-ins need one.
const requireBanner = "import { createRequire as __gatewayCreateRequire } from 'node:module'; const require = __gatewayCreateRequire(import.meta.url);";

export interface BundleOutput {
  file: string;
  bytes: number;
}

export async function bundleHandler(entry: string, outdir: string): Promise<BundleOutput[]> {
  const result = await build({
    entryPoints: { index: entry },
    outdir,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node24',
    minify: true,
    // Dynamic imports (the tokenizer of shared/tokenizer/estimate-tokens.ts) become chunks loaded on first use.
    splitting: true,
    outExtension: { '.js': '.mjs' },
    chunkNames: 'chunks/[name]-[hash]',
    mainFields: SDK_AS_ES_MODULES,
    banner: { js: requireBanner },
    plugins: [sdkImportsPastBarrels, englishOnlyZodLocales, zodWithoutUnusedTools, lightMcpSchemaValidator, coldStartInOneChunk(entry), nodeBuiltinsWithoutFacades(entry)],
    legalComments: 'none',
    metafile: true,
    logLevel: 'warning',
  });
  return Object.entries(result.metafile.outputs).map(([file, output]) => ({ file: file.slice(file.indexOf(basename(outdir))), bytes: output.bytes }));
}

// `node infra/bundling/bundle-handler.ts <entry> <outdir>`
if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const [entry, outdir] = process.argv.slice(2);
  if (!entry || !outdir) throw new Error('usage: bundle-handler.ts <entry> <outdir>');
  await bundleHandler(entry, outdir);
}
