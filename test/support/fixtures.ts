import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const fixturesDir = fileURLToPath(new URL('../fixtures/', import.meta.url));

/** A recorded provider response from test/fixtures (its provenance is the `.source.txt` beside it). */
export function readFixture(relativePath: string): string {
  return readFileSync(fixturesDir + relativePath, 'utf8');
}
