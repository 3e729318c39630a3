import type { UsageSink } from '../core/ports.ts';
import type { UsageRecord } from '../core/usage-record.ts';

/** The spill of usage records the queue refused: written by the request path, drained by `npm run replay`. */
export interface SpilledUsage {
  put(record: UsageRecord): Promise<void>;
  keys(): AsyncIterable<string>;
  read(key: string): Promise<UsageRecord>;
  remove(key: string): Promise<void>;
}

/**
 * Hands a record to the sink; when the sink refuses it, spills it instead (and says so through
 * `onSpilled`, which alarms). Only when the spill fails too does the caller see the sink's error.
 */
export function withSpill(sink: UsageSink, spill: Pick<SpilledUsage, 'put'>, onSpilled: (record: UsageRecord, error: unknown) => void): UsageSink {
  return {
    async send(record) {
      try {
        await sink.send(record);
      } catch (error) {
        try {
          await spill.put(record);
        } catch {
          throw error;
        }
        onSpilled(record, error);
      }
    },
  };
}

export interface ReplayOutcome {
  replayed: string[];
  failed: Array<{ key: string; reason: string }>;
}

/**
 * Sends every spilled record back to the queue, and removes it from the spill once the queue took it. A
 * record replayed twice (a crash between the two steps) is harmless: the writer applies each record id once.
 */
export async function replaySpilledUsage(spill: SpilledUsage, sink: UsageSink, options: { dryRun: boolean }): Promise<ReplayOutcome> {
  const outcome: ReplayOutcome = { replayed: [], failed: [] };
  for await (const key of spill.keys()) {
    try {
      const record = await spill.read(key);
      if (!options.dryRun) {
        await sink.send(record);
        await spill.remove(key);
      }
      outcome.replayed.push(key);
    } catch (error) {
      outcome.failed.push({ key, reason: error instanceof Error ? error.message : String(error) });
    }
  }
  return outcome;
}
