import type { Plugin } from 'esbuild';
import { readFile } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';

/**
 * esbuild puts each module in a chunk by the set of entry points (the handler and every dynamic import)
 * that reach it, so the code a cold start needs is cut into as many chunks as there are patterns of
 * sharing with the lazily loaded ones: ~40 files for a route group, each a file Node's module loader
 * resolves, reads, compiles and links (~0.5 ms apiece). Every dynamically imported module is made to
 * import the handler too: all the cold start's code is then reached by every entry, and esbuild gives it
 * one chunk; a lazily loaded chunk holds only what the cold start does not, as before.
 */
export function coldStartInOneChunk(entry: string): Plugin {
  const handler = resolve(entry);
  return {
    name: 'cold-start-in-one-chunk',
    setup(esbuild) {
      esbuild.onResolve({ filter: POSSIBLY_LAZY }, async (args) => {
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
/**
 * The specifiers whose resolving calls into this plugin (each call costs a round trip between esbuild and
 * Node; a catch-all filter made bundling ~60% slower): the project's own modules (`.ts`), packages by
 * name (the AWS SDK's lazily loaded credential providers and clients, the tokenizer), and the one relative
 * dynamic import of the SDK's (its SSO credential provider's `./loadSso.js`). A package's other relative
 * imports of its own files, the bulk of the SDK's, are not. A dynamic import this leaves out cuts the cold
 * start into more chunks again: test/infra/bundles.test.ts holds every function to two files.
 */
const POSSIBLY_LAZY = /^[^./]|\.ts$|\/loadSso\.js$/;
const DEFAULT_EXPORT = /\bexport\s+default\b|\bas\s+default\b/;
