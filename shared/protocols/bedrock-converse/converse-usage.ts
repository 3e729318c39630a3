import type { z } from 'zod';
import type { TokenUsage } from '../../core/token-usage.ts';
import type { converseUsageSchema } from './converse-wire-types.ts';

/**
 * Converse's usage as the gateway's: like Anthropic's, Converse's `inputTokens` leaves out the prompt
 * tokens read from and written to the cache, which the gateway counts in promptTokens (and prices on
 * their own as cachedTokens and cacheWriteTokens). Undefined when no count came.
 */
export function readConverseUsage(usage: z.infer<typeof converseUsageSchema> | null | undefined): TokenUsage | undefined {
  if (!usage || (usage.inputTokens == null && usage.outputTokens == null)) return undefined;
  const cachedTokens = usage.cacheReadInputTokens ?? 0;
  const cacheWriteTokens = usage.cacheWriteInputTokens ?? 0;
  return {
    promptTokens: (usage.inputTokens ?? 0) + cachedTokens + cacheWriteTokens,
    completionTokens: usage.outputTokens ?? 0,
    cachedTokens,
    cacheWriteTokens,
    reasoningTokens: 0,
    estimated: false,
  };
}
