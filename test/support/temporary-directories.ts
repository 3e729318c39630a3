import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const created: string[] = [];

/**
 * A fresh directory under the system's temporary directory, removed after the test file that made it
 * (vitest.config.ts's setup file): a synthesized stack's cloud assembly alone is ~34 MB, and every run
 * of the suite would otherwise leave its assemblies, throw-away homes and data directories behind.
 */
export function temporaryDirectory(prefix: string): string {
  const directory = mkdtempSync(join(tmpdir(), prefix));
  created.push(directory);
  return directory;
}

export function removeTemporaryDirectories(): void {
  for (const directory of created.splice(0)) rmSync(directory, { recursive: true, force: true });
}
