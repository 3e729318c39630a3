import { readFileSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';

/** A module's static imports of the bundle's own files (`import … from"./chunks/x.mjs"`), not its `import()`s. */
const STATIC_IMPORT = /(?:from|import)\s*"(\.\.?\/[^"]+\.mjs)"/g;

/**
 * What a function's cold start loads from its bundle: the handler file and every chunk it imports
 * statically, transitively (bundle-handler.ts gives it one chunk beside the handler); the chunks loaded
 * on first use are not counted.
 */
export function coldStartFiles(handlerFile: string): Set<string> {
  const loaded = new Set<string>();
  const load = (path: string) => {
    if (loaded.has(path)) return;
    loaded.add(path);
    for (const [, relative] of readFileSync(path, 'utf8').matchAll(STATIC_IMPORT)) load(join(dirname(path), relative as string));
  };
  load(handlerFile);
  return loaded;
}

/** The bytes a function's cold start loads (coldStartFiles). */
export function coldStartBytes(handlerFile: string): number {
  return [...coldStartFiles(handlerFile)].reduce((total, path) => total + statSync(path).size, 0);
}
