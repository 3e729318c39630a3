import { build, type OnLoadResult, type Plugin } from 'esbuild';
import { readFile } from 'node:fs/promises';
import { builtinModules } from 'node:module';
import { basename, dirname, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

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

/**
 * zod's `z` namespace re-exports every locale (`z.locales`), ~260 KB minified that esbuild cannot
 * tree-shake out of a namespace object. The gateway uses the default English messages only, which
 * zod registers itself from `locales/en.js`; the namespace keeps `en` and drops the rest.
 */
const englishOnlyZodLocales: Plugin = {
  name: 'english-only-zod-locales',
  setup(esbuild) {
    esbuild.onResolve({ filter: /\/locales\/index\.js$/ }, (args) =>
      /[\\/]node_modules[\\/]zod[\\/]/.test(args.importer) ? { path: 'zod-locales', namespace: 'english-only-zod-locales' } : undefined,
    );
    esbuild.onLoad({ filter: /.*/, namespace: 'english-only-zod-locales' }, () => ({
      contents: "export { default as en } from 'zod/v4/locales/en.js';",
      resolveDir: process.cwd(),
    }));
  },
};

/**
 * zod's `z` namespace also re-exports two tools the gateway never calls: `z.compile` (an ahead-of-time
 * parser compiler, ~29 KB minified) and `z.fromJSONSchema` (~12 KB). Neither is reached by parsing; each
 * is swapped for a stub that names itself if called, so a cold start does not compile them.
 */
const ZOD_TOOLS_LEFT_OUT: Readonly<Record<string, string>> = {
  'core/compile.js': [
    'export const INVALID = Symbol.for("zod.compile.invalid");',
    'export class ZodCompileAsyncError extends Error {}',
    'export class ZodCompileUnsupportedError extends Error {}',
    ...['compile', 'compileFn', 'withParser'].map((name) => `export function ${name}() { ${leftOut(name)} }`),
  ].join('\n'),
  'classic/from-json-schema.js': `export function fromJSONSchema() { ${leftOut('fromJSONSchema')} }`,
};

function leftOut(name: string): string {
  return `throw new Error("zod's ${name} is left out of the gateway's bundles (infra/bundling/bundle-handler.ts)");`;
}

const zodWithoutUnusedTools: Plugin = {
  name: 'zod-without-unused-tools',
  setup(esbuild) {
    esbuild.onResolve({ filter: /^\.\.?\/(core\/compile|classic\/from-json-schema|compile|from-json-schema)\.js$/ }, (args) => {
      if (!/[\\/]node_modules[\\/]zod[\\/]v4[\\/]/.test(args.importer)) return undefined;
      const module = Object.keys(ZOD_TOOLS_LEFT_OUT).find((path) => resolve(args.resolveDir, args.path).endsWith(`/v4/${path}`));
      return module ? { path: module, namespace: 'zod-tools-left-out' } : undefined;
    });
    esbuild.onLoad({ filter: /.*/, namespace: 'zod-tools-left-out' }, (args) => ({ contents: ZOD_TOOLS_LEFT_OUT[args.path] ?? '' }));
  },
};

/**
 * The MCP SDK's client and server validate JSON Schemas with Ajv by default (~130 KB minified with its
 * formats and URI parser). The SDK also ships a validator on @cfworker/json-schema (~22 KB), made for
 * runtimes where Ajv does not fit; the bundle gives the SDK that one wherever it asks for Ajv's.
 */
const lightMcpSchemaValidator: Plugin = {
  name: 'light-mcp-schema-validator',
  setup(esbuild) {
    esbuild.onResolve({ filter: /\/validation\/ajv-provider\.js$/ }, (args) =>
      /[\\/]@modelcontextprotocol[\\/]sdk[\\/]/.test(args.importer) ? { path: 'mcp-schema-validator', namespace: 'light-mcp-schema-validator' } : undefined,
    );
    esbuild.onLoad({ filter: /.*/, namespace: 'light-mcp-schema-validator' }, () => ({
      contents: "export { CfWorkerJsonSchemaValidator as AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/cfworker';",
      resolveDir: process.cwd(),
    }));
  },
};

/**
 * An ES module import of a Node built-in (`import { request } from 'node:http'`, or `await import('node:http')`
 * as the AWS SDK's HTTP handler does) makes Node build the module's ESM facade, which reads every export,
 * getters included: node:http's `WebSocket` getter loads undici (~20 ms in a fresh process), node:fs's
 * `promises`, node:crypto's `webcrypto`, node:process's stdio streams. In the bundles each built-in is a
 * small module over `process.getBuiltinModule` (what shared/transport/node-http-fetch.ts does by hand) whose
 * exports each read their property in a pure call, so esbuild keeps only the reads some code imports; what
 * `import()` of a built-in gives holds its plain values only (a namespace object keeps every export, and
 * the getters are what costs). The export names are the build machine's Node's (24, the runtime's); an
 * import of a name it lacks fails the build.
 */
function nodeBuiltinsWithoutFacades(entry: string): Plugin {
  const handler = resolve(entry);
  return {
    name: 'node-builtins-without-facades',
    setup(esbuild) {
      const names = new Set(builtinModules.filter((name) => !name.startsWith('_')));
      esbuild.onResolve({ filter: /^(node:)?[a-z_/0-9]+$/ }, (args) => {
        if (args.kind !== 'import-statement' && args.kind !== 'dynamic-import') return undefined;
        const name = args.path.replace(/^node:/, '');
        if (!names.has(name) && !args.path.startsWith('node:')) return undefined;
        // What `import()` gives is a namespace object holding every export: one without the getters.
        return { path: `node:${name}`, namespace: args.kind === 'dynamic-import' ? 'node-builtin-namespace' : 'node-builtin' };
      });
      esbuild.onLoad({ filter: /.*/, namespace: 'node-builtin' }, (args) => builtinModuleOver(args.path, () => true));
      // Loaded on first use, it imports the handler as every lazily loaded module does (coldStartInOneChunk).
      esbuild.onLoad({ filter: /.*/, namespace: 'node-builtin-namespace' }, (args) => builtinModuleOver(args.path, (descriptor) => 'value' in descriptor, handler));
    },
  };
}

function builtinModuleOver(specifier: string, exports: (descriptor: PropertyDescriptor) => boolean, handler?: string): OnLoadResult {
  const builtin = process.getBuiltinModule(specifier) as Record<string, unknown> | undefined;
  if (!builtin) return { errors: [{ text: `${specifier} is not a built-in module of this Node.js` }] };
  const exported = Object.entries(Object.getOwnPropertyDescriptors(builtin))
    .filter(([name, descriptor]) => /^[A-Za-z_$][\w$]*$/.test(name) && name !== 'default' && exports(descriptor))
    .map(([name]) => name);
  return {
    contents: [
      ...(handler ? [`import ${JSON.stringify(handler)};`] : []),
      `const $builtin$ = process.getBuiltinModule(${JSON.stringify(specifier)});`,
      'const $read$ = (name) => $builtin$[name];',
      'export default $builtin$;',
      ...exported.map((name) => `export const ${name} = /* @__PURE__ */ $read$(${JSON.stringify(name)});`),
    ].join('\n'),
    loader: 'js',
    ...(handler ? { resolveDir: dirname(handler) } : {}),
  };
}

/**
 * esbuild puts each module in a chunk by the set of entry points (the handler and every dynamic import)
 * that reach it, so the code a cold start needs is cut into as many chunks as there are patterns of
 * sharing with the lazily loaded ones: ~40 files for a route group, each a file Node's module loader
 * resolves, reads, compiles and links (~0.5 ms apiece). Every dynamically imported module is made to
 * import the handler too: all the cold start's code is then reached by every entry, and esbuild gives it
 * one chunk; a lazily loaded chunk holds only what the cold start does not, as before.
 */
function coldStartInOneChunk(entry: string): Plugin {
  const handler = resolve(entry);
  return {
    name: 'cold-start-in-one-chunk',
    setup(esbuild) {
      esbuild.onResolve({ filter: /.*/ }, async (args) => {
        if (args.kind !== 'dynamic-import' || args.pluginData === LAZY_TARGET) return undefined;
        const target = await esbuild.resolve(args.path, { kind: args.kind, importer: args.importer, resolveDir: args.resolveDir, pluginData: LAZY_TARGET });
        // A module of the bundle (a file, or a built-in's module): not a package left outside it.
        if (target.errors.length > 0 || target.external || target.namespace !== 'file') return target;
        return { path: target.path, namespace: 'lazily-loaded', pluginData: LAZY_TARGET };
      });
      esbuild.onLoad({ filter: /.*/, namespace: 'lazily-loaded' }, async (args) => {
        const target = JSON.stringify(args.path);
        // `export *` leaves the default export out (the SDK reads bowser's): it is named when there is one.
        const hasDefault = DEFAULT_EXPORT.test(await readFile(args.path, 'utf8'));
        return {
          contents: `import ${JSON.stringify(handler)};\nexport * from ${target};\n${hasDefault ? `export { default } from ${target};\n` : ''}`,
          resolveDir: dirname(args.path),
        };
      });
    },
  };
}
const LAZY_TARGET = Symbol('lazily loaded target');
const DEFAULT_EXPORT = /\bexport\s+default\b|\bas\s+default\b/;

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
    plugins: [englishOnlyZodLocales, zodWithoutUnusedTools, lightMcpSchemaValidator, coldStartInOneChunk(entry), nodeBuiltinsWithoutFacades(entry)],
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
