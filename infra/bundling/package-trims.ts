import type { Plugin } from 'esbuild';
import { resolve } from 'node:path';

// What the bundles leave out of packages the gateway uses only in part (docs/decisions/infrastructure.md).

/**
 * zod's `z` namespace re-exports every locale (`z.locales`), ~260 KB minified that esbuild cannot
 * tree-shake out of a namespace object. The gateway uses the default English messages only, which
 * zod registers itself from `locales/en.js`; the namespace keeps `en` and drops the rest.
 */
export const englishOnlyZodLocales: Plugin = {
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
  return `throw new Error("zod's ${name} is left out of the gateway's bundles (infra/bundling/package-trims.ts)");`;
}

export const zodWithoutUnusedTools: Plugin = {
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
export const lightMcpSchemaValidator: Plugin = {
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
