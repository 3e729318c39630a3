// The first thing every entry point runs (npm install, start, admin, usage, test, bench): on an older Node
// the tools fail later with errors that do not say why. Plain JavaScript, so that any Node can run it.
import { readFileSync } from 'node:fs';

/**
 * One line explaining that `found` (e.g. "20.19.0") does not satisfy `required` (the engines range of
 * package.json, e.g. ">=24"), with how to get a recent Node; undefined when it does.
 */
export function nodeVersionProblem(found, required) {
  const minimum = Number(/>=\s*v?(\d+)/.exec(required)?.[1]);
  const major = Number(found.split('.')[0]);
  if (!Number.isInteger(minimum) || major >= minimum) return undefined;
  return (
    `This project needs Node.js ${minimum} or newer, but this is Node.js ${found}: ` +
    `run "source .ci/use-node24.sh" (Linux x64) or "nvm install ${minimum}", then try again.`
  );
}

const manifest = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
const problem = nodeVersionProblem(process.versions.node, manifest.engines?.node ?? '');
if (problem) {
  console.error(`error: ${problem}`);
  process.exit(1);
}
