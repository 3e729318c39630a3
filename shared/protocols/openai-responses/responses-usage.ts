import type { TokenUsage } from '../../core/token-usage.ts';
import { responsesUsageSchema } from './responses-wire-types.ts';

/**
 * A Responses usage object as token counts (`input_tokens` already includes cached tokens and cache writes,
 * `output_tokens` reasoning tokens), or undefined when it is not one: the gateway then estimates rather than
 * count 0. Cache writes are OpenRouter's `input_tokens_details.cache_write_tokens` (Claude's and Gemini's,
 * billed at the model's cache-write price), as in its chat usage.
 */
export function readResponsesUsage(usage: unknown): TokenUsage | undefined {
  if (usage === null || usage === undefined) return undefined;
  const parsed = responsesUsageSchema.safeParse(usage);
  if (!parsed.success) return undefined;
  const value = parsed.data;
  const cacheWriteTokens = value.input_tokens_details?.cache_write_tokens ?? 0;
  return {
    promptTokens: value.input_tokens ?? 0,
    completionTokens: value.output_tokens ?? 0,
    cachedTokens: value.input_tokens_details?.cached_tokens ?? 0,
    ...(cacheWriteTokens > 0 ? { cacheWriteTokens } : {}),
    reasoningTokens: value.output_tokens_details?.reasoning_tokens ?? 0,
    estimated: false,
  };
}

/**
 * A response object's usage: its token counts, and the searches its hosted web search tool ran (one
 * `web_search_call` output item each), which OpenAI bills per call beside the tokens.
 */
export function readResponseObjectUsage(response: { usage?: unknown; output?: ReadonlyArray<{ type?: string }> | null | undefined } | null | undefined): TokenUsage | undefined {
  const usage = readResponsesUsage(response?.usage);
  const webSearches = (response?.output ?? []).filter((item) => item.type === 'web_search_call').length;
  return usage && webSearches > 0 ? { ...usage, units: { webSearches } } : usage;
}

/** Token counts as the Responses usage object (for translated or estimated usage). */
export function renderResponsesUsage(usage: TokenUsage): Record<string, unknown> {
  return {
    input_tokens: usage.promptTokens,
    input_tokens_details: { cached_tokens: usage.cachedTokens },
    output_tokens: usage.completionTokens,
    output_tokens_details: { reasoning_tokens: usage.reasoningTokens },
    total_tokens: usage.promptTokens + usage.completionTokens,
  };
}
