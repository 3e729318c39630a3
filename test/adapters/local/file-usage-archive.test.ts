import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FileUsageArchive } from '../../../shared/adapters/local/file-usage-archive.ts';
import { serializeUsageRow, toUsageRow } from '../../../shared/usage-writer/usage-row.ts';
import { sampleRecord } from '../../support/sample-usage-record.ts';

describe('FileUsageArchive', () => {
  let dir: string;

  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'file-usage-archive-'));
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  async function filesUnder(root: string): Promise<string[]> {
    const entries = await readdir(root, { recursive: true, withFileTypes: true });
    return entries.filter((entry) => entry.isFile()).map((entry) => join(entry.parentPath, entry.name).slice(root.length + 1));
  }

  it('writes the record to <root>/usage/dt=<UTC day>/<recordId>.json as one JSON line', async () => {
    const record = sampleRecord({ createdAt: '2025-06-30T23:59:59.000Z' });

    await new FileUsageArchive(dir).put(record);

    const bytes = await readFile(join(dir, 'usage', 'dt=2025-06-30', `${record.recordId}.json`), 'utf8');
    expect(bytes).toBe(serializeUsageRow(record));
    expect(JSON.parse(bytes)).toEqual(toUsageRow(record));
  });

  it('leaves one identical file and no temporary file when a record is written twice', async () => {
    const archive = new FileUsageArchive(dir);
    const record = sampleRecord();

    await archive.put(record);
    await archive.put(record);

    expect(await filesUnder(dir)).toEqual([join('usage', 'dt=2025-03-01', `${record.recordId}.json`)]);
    expect(await readFile(join(dir, 'usage', 'dt=2025-03-01', `${record.recordId}.json`), 'utf8')).toBe(serializeUsageRow(record));
  });

  it('survives the same record being written twice at the same moment (a duplicate in one batch)', async () => {
    const archive = new FileUsageArchive(dir);
    const record = sampleRecord();

    await Promise.all([archive.put(record), archive.put(record), archive.put(record)]);

    expect(await filesUnder(dir)).toEqual([join('usage', 'dt=2025-03-01', `${record.recordId}.json`)]);
    expect(await readFile(join(dir, 'usage', 'dt=2025-03-01', `${record.recordId}.json`), 'utf8')).toBe(serializeUsageRow(record));
  });

  it('replaces a truncated file left by an earlier attempt with the full record', async () => {
    const archive = new FileUsageArchive(dir);
    const record = sampleRecord();
    await archive.put(record);
    const path = join(dir, 'usage', 'dt=2025-03-01', `${record.recordId}.json`);
    await writeFile(path, '{"record_id":');

    await archive.put(record);

    expect(await readFile(path, 'utf8')).toBe(serializeUsageRow(record));
  });

  it('puts records of different days in their own partitions, one file per record', async () => {
    const archive = new FileUsageArchive(dir);
    const first = sampleRecord({ createdAt: '2025-03-01T00:00:00.000Z' });
    const second = sampleRecord({ createdAt: '2025-03-02T00:00:00.000Z' });
    const third = sampleRecord({ createdAt: '2025-03-02T12:00:00.000Z' });

    for (const record of [first, second, third]) await archive.put(record);

    expect((await filesUnder(dir)).sort()).toEqual(
      [
        join('usage', 'dt=2025-03-01', `${first.recordId}.json`),
        join('usage', 'dt=2025-03-02', `${second.recordId}.json`),
        join('usage', 'dt=2025-03-02', `${third.recordId}.json`),
      ].sort(),
    );
  });
});
