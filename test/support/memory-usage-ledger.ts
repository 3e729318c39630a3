import { generationKey } from '../../shared/adapters/aws/generation-keys.ts';
import type { LedgerOutcome, UsageLedger } from '../../shared/core/ports.ts';
import type { UsageRecord } from '../../shared/core/usage-record.ts';

/** The ledger contract in memory: the put is conditional on the record's key, the spend added atomically with it. */
export class InMemoryUsageLedger implements UsageLedger {
  readonly generations = new Map<string, UsageRecord>();
  readonly usage = new Map<string, { spentNanos: number; requestCount: number }>();

  async recordAll(records: readonly UsageRecord[]): Promise<LedgerOutcome[]> {
    await new Promise((resolve) => setImmediate(resolve)); // a round trip: concurrent calls interleave here
    return records.map((record) => {
      const key = `${generationKey(record.projectId, record.requestId)}\u0000${record.recordId}`;
      if (this.generations.has(key)) return 'already-applied';
      this.generations.set(key, structuredClone(record));
      const usage = this.usage.get(record.projectId) ?? { spentNanos: 0, requestCount: 0 };
      this.usage.set(record.projectId, { spentNanos: usage.spentNanos + record.costNanos, requestCount: usage.requestCount + 1 });
      return 'applied';
    });
  }
}

