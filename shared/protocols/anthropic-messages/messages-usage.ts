import * as z from 'zod';
import type { TokenUsage } from '../../core/token-usage.ts';

const tokenCount = z.number().int().nonnegative().nullish();
/** A detail count, dropped when a provider sends something odd: that must not discard the main counts. */
const detailCount = tokenCount.catch(undefined);

/**
 * Anthropic's usage object, leniently: `message_delta` repeats only some fields, providers behind
 * Anthropic-compatible APIs omit the cache fields or send nulls, and new fields (`service_tier`, …) pass
 * unread. Malformed main counts make the whole object unusable. `server_tool_use` counts the searches its web
 * search tool ran, which Anthropic bills apart ($10 per 1,000).
 */
export const anthropicUsageSchema = z.looseObject({
  input_tokens: tokenCount,
  output_tokens: tokenCount,
  cache_creation_input_tokens: detailCount,
  cache_read_input_tokens: detailCount,
  /** The cache writes by lifetime; their sum is cache_creation_input_tokens. */
  cache_creation: z
    .looseObject({ ephemeral_5m_input_tokens: detailCount, ephemeral_1h_input_tokens: detailCount })
    .nullish()
    .catch(undefined),
  output_tokens_details: z.looseObject({ thinking_tokens: detailCount }).nullish().catch(undefined),
  server_tool_use: z.looseObject({ web_search_requests: detailCount }).nullish().catch(undefined),
});

/** The counts an Anthropic usage object carries; a field it does not carry stays undefined. */
export interface AnthropicUsageCounts {
  inputTokens?: number;
  outputTokens?: number;
  cacheCreationInputTokens?: number;
  cacheReadInputTokens?: number;
  /** Of the cache writes, those for five minutes and for one hour (`cache_creation`), when it was sent. */
  cacheCreation5mInputTokens?: number;
  cacheCreation1hInputTokens?: number;
  thinkingTokens?: number;
  /** Searches the web search tool ran (`server_tool_use.web_search_requests`), billed per search. */
  webSearchRequests?: number;
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
  if (typeof value.cache_creation?.ephemeral_5m_input_tokens === 'number') counts.cacheCreation5mInputTokens = value.cache_creation.ephemeral_5m_input_tokens;
  if (typeof value.cache_creation?.ephemeral_1h_input_tokens === 'number') counts.cacheCreation1hInputTokens = value.cache_creation.ephemeral_1h_input_tokens;
  if (typeof value.output_tokens_details?.thinking_tokens === 'number') counts.thinkingTokens = value.output_tokens_details.thinking_tokens;
  if (typeof value.server_tool_use?.web_search_requests === 'number') counts.webSearchRequests = value.server_tool_use.web_search_requests;
  return Object.keys(counts).length > 0 ? counts : undefined;
}

/** Later counts win field by field: a `message_delta` that repeats only output_tokens keeps the input counts. */
export function mergeAnthropicUsageCounts(earlier: AnthropicUsageCounts, later: AnthropicUsageCounts): AnthropicUsageCounts {
  return { ...earlier, ...later };
}

/**
 * The gateway's token usage. Anthropic's `input_tokens` excludes cached tokens, the gateway's promptTokens
 * includes them (OpenAI's convention): promptTokens = input + cache creation + cache read, of which cache
 * reads are cachedTokens and cache creation is cacheWriteTokens, of which the one-hour writes are
 * cacheWrite1hTokens (each priced at its own rate). The total is the one Anthropic bills; the split only
 * tells which part of it was written for an hour (never more than the total), and stands for the total
 * when a usage object carries the split alone.
 */
export function toTokenUsage(counts: AnthropicUsageCounts): TokenUsage {
  const split = (counts.cacheCreation5mInputTokens ?? 0) + (counts.cacheCreation1hInputTokens ?? 0);
  const cacheWriteTokens = counts.cacheCreationInputTokens ?? split;
  const cacheWrite1hTokens = Math.min(counts.cacheCreation1hInputTokens ?? 0, cacheWriteTokens);
  const cachedTokens = counts.cacheReadInputTokens ?? 0;
  return {
    promptTokens: (counts.inputTokens ?? 0) + cacheWriteTokens + cachedTokens,
    completionTokens: counts.outputTokens ?? 0,
    cachedTokens,
    cacheWriteTokens,
    ...(cacheWrite1hTokens > 0 ? { cacheWrite1hTokens } : {}),
    reasoningTokens: counts.thinkingTokens ?? 0,
    estimated: false,
    ...(counts.webSearchRequests ? { units: { webSearches: counts.webSearchRequests } } : {}),
  };
}

/** A Messages response's usage as the gateway's token usage, or undefined when it is not a usage object. */
export function readAnthropicUsage(usage: unknown): TokenUsage | undefined {
  const counts = readAnthropicUsageCounts(usage);
  return counts ? toTokenUsage(counts) : undefined;
}

/**
 * A usage in Anthropic's shape (for estimated or translated usage): the inverse of toTokenUsage. The
 * `cache_creation` split is given when part of the writes was for an hour, as the price depends on it.
 */
export function renderAnthropicUsage(usage: TokenUsage): Record<string, number | Record<string, number>> {
  const cacheRead = Math.min(usage.cachedTokens, usage.promptTokens);
  const cacheWrite = Math.min(usage.cacheWriteTokens ?? 0, usage.promptTokens - cacheRead);
  const cacheWrite1h = Math.min(usage.cacheWrite1hTokens ?? 0, cacheWrite);
  return {
    input_tokens: usage.promptTokens - cacheRead - cacheWrite,
    cache_creation_input_tokens: cacheWrite,
    cache_read_input_tokens: cacheRead,
    ...(cacheWrite1h > 0 ? { cache_creation: { ephemeral_5m_input_tokens: cacheWrite - cacheWrite1h, ephemeral_1h_input_tokens: cacheWrite1h } } : {}),
    output_tokens: usage.completionTokens,
    ...(usage.units?.webSearches ? { server_tool_use: { web_search_requests: usage.units.webSearches } } : {}),
  };
}
