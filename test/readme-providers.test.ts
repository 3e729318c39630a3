import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { knownProviders } from '../shared/core/provider-catalog.ts';
import { README_FILE } from '../tools/cli/cli-reference-files.ts';

describe("the README's Providers bullet", () => {
  it('names every provider that provider set knows by name', async () => {
    const readme = await readFile(README_FILE, 'utf8');
    const start = readme.indexOf('- **Providers.**');
    const bullet = readme.slice(start, readme.indexOf('\n- ', start + 1));
    for (const provider of Object.keys(knownProviders)) expect(bullet).toContain(`\`${provider}\``);
  });
});
