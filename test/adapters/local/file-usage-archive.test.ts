import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FileUsageArchive } from '../../../shared/adapters/local/file-usage-archive.ts';

describe('FileUsageArchive', () => {
  let dir: string;
  let archive: FileUsageArchive;

  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'file-usage-archive-'));
    archive = new FileUsageArchive(dir);
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  async function filesUnder(root: string): Promise<string[]> {
    const entries = await readdir(root, { recursive: true, withFileTypes: true });
    return entries.filter((entry) => entry.isFile()).map((entry) => join(entry.parentPath, entry.name).slice(root.length + 1));
  }

  it('writes a key to the same path under the data directory, creating its day directory', async () => {
    await archive.write('usage/dt=2025-06-30/batch-abc.parquet', new Uint8Array([1, 2, 3]));

    expect(new Uint8Array(await readFile(join(dir, 'usage', 'dt=2025-06-30', 'batch-abc.parquet')))).toEqual(new Uint8Array([1, 2, 3]));
    expect(await archive.read('usage/dt=2025-06-30/batch-abc.parquet')).toEqual(new Uint8Array([1, 2, 3]));
  });

  it('leaves the last bytes and no temporary file when one key is written several times at once', async () => {
    await Promise.all([1, 2, 3].map((value) => archive.write('usage/dt=2025-03-01/a.parquet', new Uint8Array([value]))));

    expect(await filesUnder(dir)).toEqual([join('usage', 'dt=2025-03-01', 'a.parquet')]);
    expect((await archive.read('usage/dt=2025-03-01/a.parquet')).length).toBe(1);
  });

  it('lists the files of a day directory by key, leaving out files still being written', async () => {
    await archive.write('usage/dt=2025-03-01/a.parquet', new Uint8Array([1]));
    await archive.write('usage/dt=2025-03-01/b.parquet', new Uint8Array([2]));
    await archive.write('usage/dt=2025-03-02/c.parquet', new Uint8Array([3]));
    await writeFile(join(dir, 'usage', 'dt=2025-03-01', 'd.parquet.123.abc.tmp'), 'PAR');
    await mkdir(join(dir, 'usage', 'dt=2025-03-01', 'not-a-file'));

    expect((await archive.list('usage/dt=2025-03-01/')).sort()).toEqual(['usage/dt=2025-03-01/a.parquet', 'usage/dt=2025-03-01/b.parquet']);
  });

  it('lists nothing for a day that has no directory', async () => {
    expect(await archive.list('usage/dt=2031-01-01/')).toEqual([]);
  });

  it('refuses to list a prefix that is not a directory', async () => {
    await expect(archive.list('usage/dt=2025')).rejects.toThrow(/lists directories only/);
  });

  it('removes keys, and a key already gone is no error', async () => {
    await archive.write('usage/dt=2025-03-01/a.parquet', new Uint8Array([1]));
    await archive.write('usage/dt=2025-03-01/b.parquet', new Uint8Array([2]));

    await archive.remove(['usage/dt=2025-03-01/a.parquet', 'usage/dt=2025-03-01/gone.parquet']);

    expect(await archive.list('usage/dt=2025-03-01/')).toEqual(['usage/dt=2025-03-01/b.parquet']);
  });
});
