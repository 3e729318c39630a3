import type { AnthropicUsage } from '../protocols/anthropic-messages/anthropic-wire-types.ts';
import type { CanonicalUsage } from './canonical-events.ts';
import type { ChatUsage } from '../protocols/openai-chat/chat-wire-types.ts';

/**
 * Anthropic's usage in canonical terms. Anthropic's `input_tokens` excludes the cached parts, so the
 * whole prompt is input + cache writes + cache reads.
 */
export function readAnthropicUsage(usage: AnthropicUsage): CanonicalUsage {
  const cacheRead = usage.cache_read_input_tokens ?? 0;
  const cacheWrite = usage.cache_creation_input_tokens ?? 0;
  const reasoning = usage.output_tokens_details?.thinking_tokens;
  return {
    inputTokens: (usage.input_tokens ?? 0) + cacheRead + cacheWrite,
    outputTokens: usage.output_tokens ?? 0,
    cacheReadTokens: cacheRead,
    cacheWriteTokens: cacheWrite,
    ...(reasoning === null || reasoning === undefined ? {} : { reasoningTokens: reasoning }),
  };
}

/**
 * Merges a `message_delta` usage into the usage known so far: Anthropic's delta repeats the fields it
 * knows the final value of (output always, input and cache counts sometimes); absent fields keep theirs.
 */
export function mergeAnthropicUsage(known: AnthropicUsage, update: AnthropicUsage): AnthropicUsage {
  const merged: AnthropicUsage = { ...known };
  for (const field of ['input_tokens', 'output_tokens', 'cache_creation_input_tokens', 'cache_read_input_tokens'] as const) {
    const value = update[field];
    if (value !== null && value !== undefined) merged[field] = value;
  }
  if (update.output_tokens_details) merged.output_tokens_details = update.output_tokens_details;
  return merged;
}

/** OpenAI chat's usage in canonical terms (`prompt_tokens` already includes the cached tokens). */
export function readChatUsage(usage: ChatUsage): CanonicalUsage {
  const reasoning = usage.completion_tokens_details?.reasoning_tokens;
  return {
    inputTokens: usage.prompt_tokens ?? 0,
    outputTokens: usage.completion_tokens ?? 0,
    cacheReadTokens: usage.prompt_tokens_details?.cached_tokens ?? 0,
    ...(reasoning === null || reasoning === undefined ? {} : { reasoningTokens: reasoning }),
  };
}

/** Canonical usage as OpenAI chat's usage object. */
export function renderChatUsage(usage: CanonicalUsage) {
  return {
    prompt_tokens: usage.inputTokens,
    completion_tokens: usage.outputTokens,
    total_tokens: usage.inputTokens + usage.outputTokens,
    prompt_tokens_details: { cached_tokens: usage.cacheReadTokens ?? 0 },
    ...(usage.reasoningTokens === undefined ? {} : { completion_tokens_details: { reasoning_tokens: usage.reasoningTokens } }),
  };
}

/** Canonical usage as Anthropic's usage object: `input_tokens` is the uncached rest of the prompt. */
export function renderAnthropicUsage(usage: CanonicalUsage) {
  const cacheRead = usage.cacheReadTokens ?? 0;
  const cacheWrite = usage.cacheWriteTokens ?? 0;
  return {
    input_tokens: Math.max(0, usage.inputTokens - cacheRead - cacheWrite),
    cache_creation_input_tokens: cacheWrite,
    cache_read_input_tokens: cacheRead,
    output_tokens: usage.outputTokens,
  };
}
