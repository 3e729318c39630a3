import * as z from 'zod';
import type { TokenUsage } from '../../core/token-usage.ts';

const tokenCount = z.number().int().nonnegative().nullish();
/** A detail count, dropped when a provider sends something odd: that must not discard the main counts. */
const detailCount = tokenCount.catch(undefined);

/**
 * Anthropic's usage object, leniently: `message_delta` repeats only some fields, providers behind
 * Anthropic-compatible APIs omit the cache fields or send nulls, and new fields (`service_tier`,
 * `server_tool_use`, `cache_creation{…}`) pass unread. Malformed main counts make the whole object unusable.
 */
export const anthropicUsageSchema = z.looseObject({
  input_tokens: tokenCount,
  output_tokens: tokenCount,
  cache_creation_input_tokens: detailCount,
  cache_read_input_tokens: detailCount,
  output_tokens_details: z.looseObject({ thinking_tokens: detailCount }).nullish().catch(undefined),
});

/** The counts an Anthropic usage object carries; a field it does not carry stays undefined. */
export interface AnthropicUsageCounts {
  inputTokens?: number;
  outputTokens?: number;
  cacheCreationInputTokens?: number;
  cacheReadInputTokens?: number;
  thinkingTokens?: number;
}

/** The counts present in a usage object, or undefined when it is not a usage object or carries no count. */
export function readAnthropicUsageCounts(usage: unknown): AnthropicUsageCounts | undefined {
  if (usage === null || usage === undefined) return undefined;
  const parsed = anthropicUsageSchema.safeParse(usage);
  if (!parsed.success) return undefined;
  const value = parsed.data;
  const counts: AnthropicUsageCounts = {};
  if (typeof value.input_tokens === 'number') counts.inputTokens = value.input_tokens;
  if (typeof value.output_tokens === 'number') counts.outputTokens = value.output_tokens;
  if (typeof value.cache_creation_input_tokens === 'number') counts.cacheCreationInputTokens = value.cache_creation_input_tokens;
  if (typeof value.cache_read_input_tokens === 'number') counts.cacheReadInputTokens = value.cache_read_input_tokens;
  if (typeof value.output_tokens_details?.thinking_tokens === 'number') counts.thinkingTokens = value.output_tokens_details.thinking_tokens;
  return Object.keys(counts).length > 0 ? counts : undefined;
}

/** Later counts win field by field: a `message_delta` that repeats only output_tokens keeps the input counts. */
export function mergeAnthropicUsageCounts(earlier: AnthropicUsageCounts, later: AnthropicUsageCounts): AnthropicUsageCounts {
  return { ...earlier, ...later };
}

/**
 * The gateway's token usage. Anthropic's `input_tokens` excludes cached tokens, the gateway's promptTokens
 * includes them (OpenAI's convention): promptTokens = input + cache creation + cache read, of which cache
 * reads are cachedTokens and cache creation is cacheWriteTokens (each priced at its own rate).
 */
export function toTokenUsage(counts: AnthropicUsageCounts): TokenUsage {
  const cacheWriteTokens = counts.cacheCreationInputTokens ?? 0;
  const cachedTokens = counts.cacheReadInputTokens ?? 0;
  return {
    promptTokens: (counts.inputTokens ?? 0) + cacheWriteTokens + cachedTokens,
    completionTokens: counts.outputTokens ?? 0,
    cachedTokens,
    cacheWriteTokens,
    reasoningTokens: counts.thinkingTokens ?? 0,
    estimated: false,
  };
}

/** A Messages response's usage as the gateway's token usage, or undefined when it is not a usage object. */
export function readAnthropicUsage(usage: unknown): TokenUsage | undefined {
  const counts = readAnthropicUsageCounts(usage);
  return counts ? toTokenUsage(counts) : undefined;
}

/** A usage in Anthropic's shape (for estimated or translated usage): the inverse of toTokenUsage. */
export function renderAnthropicUsage(usage: TokenUsage): Record<string, number> {
  const cacheRead = Math.min(usage.cachedTokens, usage.promptTokens);
  const cacheWrite = Math.min(usage.cacheWriteTokens ?? 0, usage.promptTokens - cacheRead);
  return {
    input_tokens: usage.promptTokens - cacheRead - cacheWrite,
    cache_creation_input_tokens: cacheWrite,
    cache_read_input_tokens: cacheRead,
    output_tokens: usage.completionTokens,
  };
}
