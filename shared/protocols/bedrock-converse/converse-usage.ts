import type * as z from 'zod';
import type { TokenUsage } from '../../core/token-usage.ts';
import { toTokenUsage } from '../anthropic-messages/messages-usage.ts';
import type { converseUsageSchema } from './converse-wire-types.ts';

/**
 * Converse's usage as the gateway's, read as Anthropic's is: Converse's `inputTokens` too leaves out the
 * prompt tokens read from and written to the cache, which the gateway counts in promptTokens (and prices
 * on their own as cachedTokens and cacheWriteTokens, the one-hour writes of `cacheDetails` apart). Undefined
 * when no count came.
 */
export function readConverseUsage(usage: z.infer<typeof converseUsageSchema> | null | undefined): TokenUsage | undefined {
  if (!usage || (usage.inputTokens == null && usage.outputTokens == null)) return undefined;
  return toTokenUsage({
    inputTokens: usage.inputTokens ?? undefined,
    outputTokens: usage.outputTokens ?? undefined,
    cacheReadInputTokens: usage.cacheReadInputTokens ?? undefined,
    cacheCreationInputTokens: usage.cacheWriteInputTokens ?? undefined,
    cacheCreation1hInputTokens: oneHourWrites(usage.cacheDetails),
  });
}

/** The writes `cacheDetails` gives for a one-hour cache, or undefined when it names none. */
function oneHourWrites(details: z.infer<typeof converseUsageSchema>['cacheDetails']): number | undefined {
  const hour = (details ?? []).filter((detail) => detail.ttl === '1h');
  return hour.length > 0 ? hour.reduce((sum, detail) => sum + (detail.inputTokens ?? 0), 0) : undefined;
}
