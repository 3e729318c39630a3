import * as z from 'zod';
import type { UsageArchive } from '../core/ports.ts';
import { compactUsageDay, type DayCompaction } from './compact-usage-day.ts';

/**
 * Days a scheduled compaction looks back: a record can reach the writer up to 14 days after it was made
 * (the queue's retention), and lands in the day it was made, so a day gets late files for that long.
 */
export const COMPACTION_LOOKBACK_DAYS = 15;
/** A longer range is a typo more often than a backfill: split it into several invocations. */
export const MAX_COMPACTION_DAYS = 366;
const DAY_MS = 86_400_000;

const day = z.iso.date();

/**
 * The compactor's event: from the schedule (EventBridge's event, whose fields are ignored) or by hand with
 * `from` and `to` (inclusive UTC days) to compact older days, e.g. after replaying old records.
 */
export const compactionRequestSchema = z.looseObject({ from: day.optional(), to: day.optional() });
export type CompactionRequest = z.infer<typeof compactionRequestSchema>;

function dayOf(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}

/**
 * The days to compact, oldest first: by default the lookback window up to yesterday (today is still written).
 * A `from` of today without a `to` is that day alone, not a range that ends before it starts: compacting a
 * day still written is safe (a file written meanwhile is left for the next run).
 */
export function compactionDays(request: CompactionRequest, now: number): string[] {
  const yesterday = dayOf(now - DAY_MS);
  const to = request.to ?? (request.from !== undefined && request.from > yesterday ? request.from : yesterday);
  const from = request.from ?? dayOf(Date.parse(to) - (COMPACTION_LOOKBACK_DAYS - 1) * DAY_MS);
  if (from > to) throw new Error(`from ${from} is after to ${to}`);
  const count = (Date.parse(to) - Date.parse(from)) / DAY_MS + 1;
  if (count > MAX_COMPACTION_DAYS) throw new Error(`${count} days from ${from} to ${to}: compact at most ${MAX_COMPACTION_DAYS} at once`);
  return Array.from({ length: count }, (_, index) => dayOf(Date.parse(from) + index * DAY_MS));
}

/** Compacts each day in turn; the days that needed nothing are left out of the answer. */
export async function compactUsageDays(archive: UsageArchive, days: readonly string[]): Promise<DayCompaction[]> {
  const done: DayCompaction[] = [];
  for (const each of days) {
    const outcome = await compactUsageDay(archive, each);
    if (outcome.compactedKey !== undefined) done.push(outcome);
  }
  return done;
}
