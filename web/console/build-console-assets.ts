import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build } from 'esbuild';

/** One file of the console's static site, by its name under /console/. */
export interface ConsoleAsset {
  name: string;
  contentType: string;
  body: Buffer;
}

const SOURCE = fileURLToPath(new URL('.', import.meta.url));

/**
 * The console's static files: index.html, console.css, and console.js bundled by esbuild from app/ (plain
 * TypeScript, no framework), minified. The local host serves them from memory; the stack deploys them to S3.
 */
export async function buildConsoleAssets(): Promise<ConsoleAsset[]> {
  const script = await build({
    entryPoints: [join(SOURCE, 'app', 'main.ts')],
    bundle: true,
    format: 'esm',
    target: 'es2022',
    platform: 'browser',
    minify: true,
    write: false,
    legalComments: 'none',
    logLevel: 'warning',
  });
  const bundle = script.outputFiles[0];
  if (!bundle) throw new Error('esbuild produced no console.js');
  return [
    { name: 'index.html', contentType: 'text/html; charset=utf-8', body: await readFile(join(SOURCE, 'index.html')) },
    { name: 'console.css', contentType: 'text/css; charset=utf-8', body: await readFile(join(SOURCE, 'console.css')) },
    { name: 'console.js', contentType: 'text/javascript; charset=utf-8', body: Buffer.from(bundle.contents) },
  ];
}

// `node web/console/build-console-assets.ts <outdir>`: the CDK app's bundling step (infra/bundling/console-assets.ts).
if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const [outdir] = process.argv.slice(2);
  if (!outdir) throw new Error('usage: build-console-assets.ts <outdir>');
  await mkdir(outdir, { recursive: true });
  for (const asset of await buildConsoleAssets()) await writeFile(join(outdir, asset.name), asset.body);
}
