import type { BilledUnits } from './billed-units.ts';

/**
 * Token counts of one request, in one meaning for every protocol: as the upstream reported them or as the
 * gateway estimated them. Readers of each wire protocol produce it, writers render it, pricing and the
 * usage record consume it.
 */
export interface TokenUsage {
  /** All prompt tokens, cache reads and cache writes included (OpenAI's `prompt_tokens` convention). */
  promptTokens: number;
  /** All generated tokens, reasoning included. */
  completionTokens: number;
  /** Prompt tokens served from the provider's cache (cache reads), a part of promptTokens. */
  cachedTokens: number;
  /**
   * Prompt tokens written to the provider's cache (Anthropic's `cache_creation_input_tokens`), a part of
   * promptTokens. Absent for providers that do not charge cache writes separately.
   */
  cacheWriteTokens?: number;
  /**
   * Of cacheWriteTokens, those written to a cache that lives an hour (Anthropic's
   * `cache_creation.ephemeral_1h_input_tokens`), which are dearer than the default five-minute writes.
   */
  cacheWrite1hTokens?: number;
  /** Completion tokens spent on reasoning (a part of completionTokens). */
  reasoningTokens: number;
  /** True when the gateway counted with its tokenizer because the upstream reported nothing usable. */
  estimated: boolean;
  /** What the request is billed beyond tokens (the request, images, seconds of audio, …); none when absent. */
  units?: BilledUnits;
}

export const ZERO_USAGE: TokenUsage = { promptTokens: 0, completionTokens: 0, cachedTokens: 0, reasoningTokens: 0, estimated: false };
