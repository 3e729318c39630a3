import { describe, expect, it } from 'vitest';
import { COMPACTION_LOOKBACK_DAYS, compactionDays, compactUsageDays } from '../../shared/usage-writer/compact-usage.ts';
import { usageBatchFiles } from '../../shared/usage-writer/usage-batch-files.ts';
import { MemoryUsageArchive } from '../support/memory-usage-archive.ts';
import { sampleRecord } from '../support/sample-usage-record.ts';

const NOW = Date.parse('2025-03-20T01:30:00Z');

describe('compactionDays', () => {
  it('covers the lookback window up to yesterday when the schedule calls', () => {
    const days = compactionDays({ source: 'aws.events', 'detail-type': 'Scheduled Event' }, NOW);
    expect(days).toHaveLength(COMPACTION_LOOKBACK_DAYS);
    expect(days.at(-1)).toBe('2025-03-19');
    expect(days[0]).toBe('2025-03-05');
  });

  it('covers the days asked for, both inclusive, across a month end', () => {
    expect(compactionDays({ from: '2025-02-27', to: '2025-03-01' }, NOW)).toEqual(['2025-02-27', '2025-02-28', '2025-03-01']);
  });

  it('compacts today alone when asked from today without an end (the default end, yesterday, is before it)', () => {
    expect(compactionDays({ from: '2025-03-20' }, NOW)).toEqual(['2025-03-20']);
    expect(compactionDays({ from: '2025-03-18' }, NOW)).toEqual(['2025-03-18', '2025-03-19']);
  });

  it('refuses a range that ends before it starts, or spans more than a year', () => {
    expect(() => compactionDays({ from: '2025-03-02', to: '2025-03-01' }, NOW)).toThrow(/from 2025-03-02 is after to 2025-03-01/);
    expect(() => compactionDays({ from: '2023-01-01', to: '2025-03-01' }, NOW)).toThrow(/compact at most 366/);
  });
});

describe('compactUsageDays', () => {
  it('compacts each day that has several files and reports only those', async () => {
    const archive = new MemoryUsageArchive();
    const batches = [
      [sampleRecord({ createdAt: '2025-03-01T01:00:00Z' })],
      [sampleRecord({ createdAt: '2025-03-01T02:00:00Z' }), sampleRecord({ createdAt: '2025-03-02T02:00:00Z' })],
      [sampleRecord({ createdAt: '2025-03-03T02:00:00Z' })],
      [sampleRecord({ createdAt: '2025-03-03T03:00:00Z' })],
    ];
    for (const batch of batches) for (const file of usageBatchFiles(batch)) await archive.write(file.key, file.body);

    const outcomes = await compactUsageDays(archive, ['2025-03-01', '2025-03-02', '2025-03-03']);

    expect(outcomes.map((outcome) => [outcome.day, outcome.files, outcome.records])).toEqual([
      ['2025-03-01', 2, 2],
      ['2025-03-03', 2, 2],
    ]);
    expect([...archive.objects.keys()].sort().map((key) => key.replace(/-[0-9a-f]{32}/, ''))).toEqual([
      'usage/dt=2025-03-01/compacted.parquet',
      'usage/dt=2025-03-02/batch.parquet',
      'usage/dt=2025-03-03/compacted.parquet',
    ]);
  });
});
