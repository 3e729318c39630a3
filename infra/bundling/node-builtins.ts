import type { OnLoadResult, Plugin } from 'esbuild';
import { builtinModules } from 'node:module';
import { dirname, resolve } from 'node:path';

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
export function nodeBuiltinsWithoutFacades(entry: string): Plugin {
  const handler = resolve(entry);
  return {
    name: 'node-builtins-without-facades',
    setup(esbuild) {
      // Only the built-ins' names call into this plugin: a catch-all filter would cost a call per import.
      const names = builtinModules.filter((name) => !name.startsWith('_')).map((name) => name.replace(/[/.]/g, '\\$&'));
      esbuild.onResolve({ filter: new RegExp(`^(node:[a-z_/0-9]+|${names.join('|')})$`) }, (args) => {
        if (args.kind !== 'import-statement' && args.kind !== 'dynamic-import') return undefined;
        const name = args.path.replace(/^node:/, '');
        // What `import()` gives is a namespace object holding every export: one without the getters.
        return { path: `node:${name}`, namespace: args.kind === 'dynamic-import' ? 'node-builtin-namespace' : 'node-builtin' };
      });
      esbuild.onLoad({ filter: /.*/, namespace: 'node-builtin' }, (args) => builtinModuleOver(args.path, () => true, undefined, LOADED_ON_FIRST_CALL[args.path]));
      // Loaded on first use, it imports the handler as every lazily loaded module does (coldStartInOneChunk).
      esbuild.onLoad({ filter: /.*/, namespace: 'node-builtin-namespace' }, (args) => builtinModuleOver(args.path, (descriptor) => 'value' in descriptor, handler));
    },
  };
}

/**
 * Functions of built-ins that a cold start reaches but seldom calls, by built-in: their module is loaded at
 * their first call rather than at import. The AWS SDK's checksums read `zlib.crc32` at import (its
 * `Crc32Node`, which the cold start holds because the SDK's checksum index re-exports it), and only S3
 * uploads and Bedrock's event streams call it; loading node:zlib takes 2–5 ms of a cold start.
 */
const LOADED_ON_FIRST_CALL: Readonly<Record<string, readonly string[]>> = { 'node:zlib': ['crc32'] };

function builtinModuleOver(specifier: string, exports: (descriptor: PropertyDescriptor) => boolean, handler?: string, calledLater: readonly string[] = []): OnLoadResult {
  const builtin = process.getBuiltinModule(specifier) as Record<string, unknown> | undefined;
  if (!builtin) return { errors: [{ text: `${specifier} is not a built-in module of this Node.js` }] };
  const exported = Object.entries(Object.getOwnPropertyDescriptors(builtin))
    .filter(([name, descriptor]) => /^[A-Za-z_$][\w$]*$/.test(name) && name !== 'default' && exports(descriptor))
    .map(([name]) => name);
  return {
    contents: [
      ...(handler ? [`import ${JSON.stringify(handler)};`] : []),
      ...(calledLater.length === 0
        ? [`const $builtin$ = process.getBuiltinModule(${JSON.stringify(specifier)});`, 'const $read$ = (name) => $builtin$[name];', 'export default $builtin$;']
        : [
            `let $loaded$;`,
            `const $builtin$ = () => ($loaded$ ??= process.getBuiltinModule(${JSON.stringify(specifier)}));`,
            'const $read$ = (name) => $builtin$()[name];',
            // The module object itself only on first use too.
            'export default new Proxy({}, { get: (_, name) => $builtin$()[name] });',
          ]),
      ...exported.map((name) =>
        calledLater.includes(name)
          ? `export function ${name}(...args) { return $builtin$().${name}(...args); }`
          : `export const ${name} = /* @__PURE__ */ $read$(${JSON.stringify(name)});`,
      ),
    ].join('\n'),
    loader: 'js',
    ...(handler ? { resolveDir: dirname(handler) } : {}),
  };
}
