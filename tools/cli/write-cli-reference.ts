import '../check-node-version.js';
import { readFile, writeFile } from 'node:fs/promises';
import { CLI_REFERENCE_FILE, README_FILE, withCliSynopsis } from './cli-reference-files.ts';
import { renderCliReference } from './admin/render-cli-reference.ts';

/** `npm run docs:cli`: rewrites docs/cli.md and the README's command list from the command definitions. */
await writeFile(CLI_REFERENCE_FILE, renderCliReference());
await writeFile(README_FILE, withCliSynopsis(await readFile(README_FILE, 'utf8')));
console.log(`wrote ${CLI_REFERENCE_FILE} and the command list of ${README_FILE}`);
