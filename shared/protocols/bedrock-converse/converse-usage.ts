import type * as z from 'zod';
import type { TokenUsage } from '../../core/token-usage.ts';
import { toTokenUsage } from '../anthropic-messages/messages-usage.ts';
import type { converseUsageSchema } from './converse-wire-types.ts';

/**
 * Converse's usage as the gateway's, read as Anthropic's is: Converse's `inputTokens` too leaves out the
 * prompt tokens read from and written to the cache, which the gateway counts in promptTokens (and prices
 * on their own as cachedTokens and cacheWriteTokens). Undefined when no count came.
 */
export function readConverseUsage(usage: z.infer<typeof converseUsageSchema> | null | undefined): TokenUsage | undefined {
  if (!usage || (usage.inputTokens == null && usage.outputTokens == null)) return undefined;
  return toTokenUsage({
    inputTokens: usage.inputTokens ?? undefined,
    outputTokens: usage.outputTokens ?? undefined,
    cacheReadInputTokens: usage.cacheReadInputTokens ?? undefined,
    cacheCreationInputTokens: usage.cacheWriteInputTokens ?? undefined,
  });
}
