// A handler with the shapes the bundler's chunking cares about: two modules of the cold start, each
// shared with another lazily loaded module (one with a default export), which esbuild alone would put in
// two chunks.
import { greeting } from './greeting.ts';
import { punctuate } from './punctuation.ts';

export async function handler(): Promise<string[]> {
  const [named, withDefault] = await Promise.all([import('./lazy-named.ts'), import('./lazy-default.ts')]);
  return [punctuate(greeting('cold')), named.shout('named'), withDefault.default('default')];
}
