import type { UsageArchive } from '../../shared/core/ports.ts';
import { compactUsageDays } from '../../shared/usage-writer/compact-usage.ts';
import { faultPlan, InjectedFault } from './usage-workload.ts';

const MAX_COMPACTION_RUNS = 25;

/** Runs the compaction over every day until a run gets through, crashing `rate` of its writes and removals. */
export async function compactWithFaults(archive: UsageArchive, days: string[], seed: number, rate: number, afterCrash: () => Promise<void>) {
  const fault = faultPlan(seed ^ 0xc0ffee, rate);
  const flaky: UsageArchive = {
    list: (prefix) => archive.list(prefix),
    read: (key) => archive.read(key),
    async write(key, body) {
      const when = fault('compacted file', key);
      if (when === 'before') throw new InjectedFault('S3 down before the compacted file was written');
      await archive.write(key, body);
      if (when === 'after') throw new InjectedFault('compactor crashed after writing the compacted file');
    },
    async remove(keys) {
      const when = fault('remove', keys.join());
      if (when === 'before') throw new InjectedFault('compactor crashed before removing its inputs');
      // A crash halfway through the removals: some inputs are gone, the rest still beside the compacted file.
      await archive.remove(when === 'after' ? keys.slice(0, Math.ceil(keys.length / 2)) : keys);
      if (when === 'after') throw new InjectedFault('compactor crashed while removing its inputs');
    },
  };
  let crashes = 0;
  for (let run = 1; run <= MAX_COMPACTION_RUNS; run += 1) {
    try {
      await compactUsageDays(flaky, days);
      return { crashes };
    } catch (error) {
      if (!(error instanceof InjectedFault)) throw error;
      crashes += 1;
      await afterCrash();
    }
  }
  throw new Error(`seed ${seed}: the compaction crashed ${MAX_COMPACTION_RUNS} times in a row`);
}

