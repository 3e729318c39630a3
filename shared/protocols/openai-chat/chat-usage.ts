import * as z from 'zod';
import { asJsonObject } from '../../core/json-object.ts';
import { withoutProviderCost } from '../provider-cost.ts';
import type { TokenUsage } from '../../core/token-usage.ts';
import { stringifyWithExactDecimals } from '../../http/exact-decimal-json.ts';

/** OpenAI's usage object, leniently: providers omit details or send nulls. */
const tokenCount = z.number().int().nonnegative().nullish();
/** A detail count, dropped when a provider sends something odd: that must not discard the main counts. */
const detailCount = tokenCount.catch(undefined);

/**
 * Malformed main counts make the whole usage unusable (the gateway then estimates instead of counting 0).
 * Beside OpenAI's own fields, two that OpenAI-compatible providers the gateway knows by name report their
 * prompt cache in: DeepSeek's `prompt_cache_hit_tokens` (its cache reads, which it sends instead of
 * `prompt_tokens_details.cached_tokens`) and OpenRouter's `prompt_tokens_details.cache_write_tokens` (the
 * writes it bills at the model's cache-write price, Claude's and Gemini's).
 */
export const openAiUsageSchema = z.looseObject({
  prompt_tokens: tokenCount,
  completion_tokens: tokenCount,
  total_tokens: detailCount,
  prompt_cache_hit_tokens: detailCount,
  prompt_tokens_details: z.looseObject({ cached_tokens: detailCount, cache_write_tokens: detailCount }).nullish().catch(undefined),
  completion_tokens_details: z.looseObject({ reasoning_tokens: detailCount }).nullish().catch(undefined),
});

/**
 * A chat usage object as token counts (`prompt_tokens` already includes cached tokens and cache writes), or
 * undefined when it is not one. Cache reads are `prompt_tokens_details.cached_tokens`, else DeepSeek's
 * `prompt_cache_hit_tokens`; cache writes OpenRouter's `cache_write_tokens`: each is priced at its own rate.
 */
export function readChatUsage(usage: unknown): TokenUsage | undefined {
  if (usage === null || usage === undefined) return undefined;
  const parsed = openAiUsageSchema.safeParse(usage);
  if (!parsed.success) return undefined;
  const value = parsed.data;
  const cacheWriteTokens = value.prompt_tokens_details?.cache_write_tokens ?? 0;
  return {
    promptTokens: value.prompt_tokens ?? 0,
    completionTokens: value.completion_tokens ?? 0,
    cachedTokens: value.prompt_tokens_details?.cached_tokens ?? value.prompt_cache_hit_tokens ?? 0,
    ...(cacheWriteTokens > 0 ? { cacheWriteTokens } : {}),
    reasoningTokens: value.completion_tokens_details?.reasoning_tokens ?? 0,
    estimated: false,
  };
}

/** Token counts as OpenAI chat's usage object (for translated or estimated usage). */
export function renderChatUsage(usage: TokenUsage): Record<string, unknown> {
  return {
    prompt_tokens: usage.promptTokens,
    completion_tokens: usage.completionTokens,
    total_tokens: usage.promptTokens + usage.completionTokens,
    prompt_tokens_details: { cached_tokens: usage.cachedTokens },
    completion_tokens_details: { reasoning_tokens: usage.reasoningTokens },
  };
}

/**
 * An upstream's chat usage object as the gateway shows it with its cost: the detail counts the interface
 * promises (`prompt_tokens_details.cached_tokens`, `completion_tokens_details.reasoning_tokens`) are added
 * from the metered usage when the upstream left them out; whatever it did send stays as it is.
 */
export function completeChatUsage(reported: Record<string, unknown>, usage: TokenUsage): Record<string, unknown> {
  const promptDetails = asJsonObject(reported.prompt_tokens_details) ?? {};
  const completionDetails = asJsonObject(reported.completion_tokens_details) ?? {};
  if (typeof promptDetails.cached_tokens === 'number' && typeof completionDetails.reasoning_tokens === 'number') return reported;
  return {
    ...reported,
    prompt_tokens_details: { ...promptDetails, cached_tokens: typeof promptDetails.cached_tokens === 'number' ? promptDetails.cached_tokens : usage.cachedTokens },
    completion_tokens_details: {
      ...completionDetails,
      reasoning_tokens: typeof completionDetails.reasoning_tokens === 'number' ? completionDetails.reasoning_tokens : usage.reasoningTokens,
    },
  };
}

/**
 * Serialises a payload whose `usage` gets `cost` as an exact decimal number literal: JSON.stringify would
 * print small costs in exponent notation (1.5e-7).
 */
export function stringifyWithUsageCost(payload: Record<string, unknown>, usage: Record<string, unknown>, costUsd: string): string {
  return stringifyWithExactDecimals((decimal) => ({ ...payload, usage: { ...withoutProviderCost(usage), cost: decimal(costUsd) } }));
}

