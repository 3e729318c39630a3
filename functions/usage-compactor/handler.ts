import middy from '@middy/core';
import { loadRuntimeConfig, type RuntimeConfig } from '../../shared/config/runtime-config.ts';
import { onFirstCall } from '../../shared/lambda/lambda-handlers.ts';
import { compactionDays, compactionRequestSchema, compactUsageDays } from '../../shared/usage-writer/compact-usage.ts';
import type { DayCompaction } from '../../shared/usage-writer/compact-usage-day.ts';
import { createUsageArchive } from '../../shared/wiring/create-usage-archive.ts';
import { createLogger } from '../../shared/wiring/logger.ts';

/**
 * The usage compactor: once a day (an EventBridge schedule) it merges each recent day's usage files into
 * one Parquet file; invoked by hand with `{ "from": "YYYY-MM-DD", "to": "YYYY-MM-DD" }` it compacts those days.
 */
function createCompactor(config: RuntimeConfig, now: () => number) {
  const logger = createLogger('gateway-usage-compactor', config);
  const archive = createUsageArchive(config);
  return async (event: unknown): Promise<{ compacted: DayCompaction[] }> => {
    const days = compactionDays(compactionRequestSchema.parse(event ?? {}), now());
    const compacted = await compactUsageDays(archive, days);
    logger.info('usage compacted', { from: days[0], to: days.at(-1), compacted });
    return { compacted };
  };
}

/** The handler for a configuration and a clock (tests, the local usage CLI). */
export function createHandler(config: RuntimeConfig, now: () => number = Date.now) {
  return middy().handler(createCompactor(config, now));
}

/** Lambda's entry point: built from the environment on the first invocation. */
export const handler = middy().handler(onFirstCall(() => createCompactor(loadRuntimeConfig(process.env), Date.now)));
