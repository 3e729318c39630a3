import { describe, expect, it } from 'vitest';
import type { UsageRecord } from '../../shared/core/usage-record.ts';
import { compactUsageDay } from '../../shared/usage-writer/compact-usage-day.ts';
import { usageBatchFiles } from '../../shared/usage-writer/usage-batch-files.ts';
import { UnreadableUsageFileError } from '../../shared/usage-writer/usage-parquet-reader.ts';
import { toUsageRow } from '../../shared/usage-writer/usage-row.ts';
import { MemoryUsageArchive } from '../support/memory-usage-archive.ts';
import { sampleRecord, usageFilesBeforeEndUser } from '../support/sample-usage-record.ts';

const DAY = '2025-03-01';
const PREFIX = `usage/dt=${DAY}/`;

/** Writes the records as the writer does, one delivered batch per argument. */
async function deliver(archive: MemoryUsageArchive, ...batches: UsageRecord[][]): Promise<void> {
  for (const batch of batches) for (const file of usageBatchFiles(batch)) await archive.write(file.key, file.body);
}

const at = (time: string, overrides: Partial<UsageRecord> = {}) => sampleRecord({ createdAt: `${DAY}T${time}Z`, ...overrides });

describe('compactUsageDay', () => {
  it('merges the batch files of a day into one file with each record once, in time order, and removes them', async () => {
    const archive = new MemoryUsageArchive();
    const [a, b, c] = [at('10:00:00'), at('08:00:00'), at('09:00:00')] as [UsageRecord, UsageRecord, UsageRecord];
    const otherDay = sampleRecord({ createdAt: '2025-03-02T00:00:00Z' });
    await deliver(archive, [a, b], [c, a], [b], [otherDay]);

    const outcome = await compactUsageDay(archive, DAY);

    expect(outcome).toEqual({ day: DAY, files: 3, rows: 5, records: 3, compactedKey: expect.stringMatching(/^usage\/dt=2025-03-01\/compacted-[0-9a-f]{32}\.parquet$/) });
    expect(await archive.list(PREFIX)).toEqual([outcome.compactedKey]);
    expect((await archive.rowsByKey()).get(outcome.compactedKey ?? '')).toEqual([b, c, a].map(toUsageRow));
    expect(await archive.list('usage/dt=2025-03-02/')).toHaveLength(1);
  });

  it('leaves a day with a single Parquet file, or none, as it is', async () => {
    const archive = new MemoryUsageArchive();
    await deliver(archive, [at('10:00:00'), at('11:00:00')]);

    expect(await compactUsageDay(archive, DAY)).toEqual({ day: DAY, files: 1, rows: 0, records: 0 });
    expect(await compactUsageDay(archive, '2025-03-09')).toEqual({ day: '2025-03-09', files: 0, rows: 0, records: 0 });
    expect(archive.writes).toHaveLength(1);
  });

  it('finishes a compaction interrupted before its inputs were removed: same file, same bytes, inputs gone', async () => {
    const archive = new MemoryUsageArchive();
    const records = [at('08:00:00'), at('09:00:00'), at('10:00:00')];
    await deliver(archive, records.slice(0, 2), records.slice(1));
    const remove = archive.remove.bind(archive);
    archive.remove = async () => {
      throw new Error('the compactor crashed before removing its inputs');
    };
    await expect(compactUsageDay(archive, DAY)).rejects.toThrow(/crashed/);
    const [compacted] = archive.writes.slice(-1);
    const bytes = archive.objects.get(compacted ?? '');
    expect(await archive.list(PREFIX)).toHaveLength(3);
    archive.remove = remove;

    const outcome = await compactUsageDay(archive, DAY);

    expect(outcome).toMatchObject({ files: 3, rows: 7, records: 3, compactedKey: compacted });
    expect(await archive.list(PREFIX)).toEqual([compacted]);
    expect(archive.objects.get(compacted ?? '')).toEqual(bytes);
  });

  it('keeps a file written while it ran, and merges it on the next run', async () => {
    const archive = new MemoryUsageArchive();
    const late = at('23:00:00');
    await deliver(archive, [at('08:00:00')], [at('09:00:00')]);
    const read = archive.read.bind(archive);
    let delivered = false;
    archive.read = async (key) => {
      if (!delivered) {
        delivered = true;
        await deliver(archive, [late]); // the writer, between the compactor's listing and its removal
      }
      return read(key);
    };

    const first = await compactUsageDay(archive, DAY);
    const second = await compactUsageDay(archive, DAY);

    expect(first.records).toBe(2);
    expect(second).toMatchObject({ files: 2, records: 3 });
    expect(await archive.list(PREFIX)).toEqual([second.compactedKey]);
  });

  it('merges files written before end_user existed with newer ones: end_user is null for their records', async () => {
    const archive = new MemoryUsageArchive();
    const earlier = at('07:00:00', { attribution: { environment: 'staging' } });
    const later = at('08:00:00', { attribution: { endUser: 'user-123' } });
    for (const file of usageFilesBeforeEndUser([earlier])) await archive.write(file.key, file.body);
    await deliver(archive, [later]);

    const outcome = await compactUsageDay(archive, DAY);

    expect(outcome).toMatchObject({ files: 2, records: 2 });
    const rows = (await archive.rowsByKey()).get(outcome.compactedKey ?? '');
    // The columns added since (tokens_cache_write_1h) are null too for the earlier file's records.
    expect(rows).toEqual([{ ...toUsageRow(earlier), tokens_cache_write_1h: null }, toUsageRow(later)]);
    expect(rows?.map((row) => row.end_user)).toEqual([null, 'user-123']);
  });

  it('converts the legacy JSON files of a day (one row per line) into its Parquet file', async () => {
    const archive = new MemoryUsageArchive();
    const legacy = at('07:00:00', { errorCode: 'upstream_timeout', attribution: { environment: 'staging' } });
    const current = at('08:00:00');
    await archive.write(`${PREFIX}${legacy.recordId}.json`, new TextEncoder().encode(`${JSON.stringify(toUsageRow(legacy))}\n`));
    await deliver(archive, [current]);

    const outcome = await compactUsageDay(archive, DAY);

    expect(outcome).toMatchObject({ files: 2, records: 2 });
    expect((await archive.rowsByKey()).get(outcome.compactedKey ?? '')).toEqual([legacy, current].map(toUsageRow));
  });

  it('converts a day holding a single legacy JSON file', async () => {
    const archive = new MemoryUsageArchive();
    const legacy = at('07:00:00');
    await archive.write(`${PREFIX}${legacy.recordId}.json`, new TextEncoder().encode(`${JSON.stringify(toUsageRow(legacy))}\n`));

    const outcome = await compactUsageDay(archive, DAY);

    expect(await archive.list(PREFIX)).toEqual([outcome.compactedKey]);
  });

  it('fails on a usage file it cannot read, and removes nothing', async () => {
    const archive = new MemoryUsageArchive();
    await deliver(archive, [at('08:00:00')]);
    await archive.write(`${PREFIX}rec-broken.json`, new TextEncoder().encode('{"record_id": "rec-broken", "tokens_prompt": "many"}\n'));

    await expect(compactUsageDay(archive, DAY)).rejects.toThrow(UnreadableUsageFileError);
    await expect(compactUsageDay(archive, DAY)).rejects.toThrow(/column tokens_prompt holds string many, not a bigint/);
    expect(await archive.list(PREFIX)).toHaveLength(2);
  });
});
