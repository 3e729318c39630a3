import type { MeteredObservation } from '../canonical/canonical-meter.ts';
import type { TokenUsage } from '../core/token-usage.ts';
import { countTokens } from '../tokenizer/estimate-tokens.ts';
import { DEFAULT_MAX_OUTPUT_TOKENS, type UsageEstimate } from './admit-usage.ts';

/**
 * A quick bound for admission (rate limits, balance reservation): the prompt at about four characters a
 * token (no tokenizer on the hot path) and the request's output cap.
 */
export function estimateUsageBound(promptText: string, outputCap: number | undefined): UsageEstimate {
  return {
    promptTokens: Math.ceil(promptText.length / 4),
    maxOutputTokens: outputCap ?? DEFAULT_MAX_OUTPUT_TOKENS,
    outputCapGiven: outputCap !== undefined,
  };
}

/**
 * The usage of an answer whose upstream reported none (or was cut off before its final usage), counted
 * with the tokenizer: the upstream's provisional counts are kept where it gave them (Anthropic announces
 * the prompt first), the output is the larger of its placeholder and the generated text's count. The
 * prompt is counted once, however often the estimate is asked for.
 */
export function createUsageEstimator(promptText: () => string) {
  let promptTokens: Promise<number> | undefined;
  return async (observed: Pick<MeteredObservation, 'provisionalUsage' | 'completionText'>): Promise<TokenUsage> => {
    const provisional = observed.provisionalUsage;
    promptTokens ??= countTokens(promptText());
    return {
      promptTokens: provisional?.promptTokens || (await promptTokens),
      completionTokens: Math.max(provisional?.completionTokens ?? 0, await countTokens(observed.completionText)),
      cachedTokens: provisional?.cachedTokens ?? 0,
      reasoningTokens: 0,
      ...(provisional?.cacheWriteTokens ? { cacheWriteTokens: provisional.cacheWriteTokens } : {}),
      estimated: true,
    };
  };
}

export type UsageEstimator = ReturnType<typeof createUsageEstimator>;

/** The usage to record: what the upstream reported, else the estimate. */
export function finalUsageOf(observed: MeteredObservation, estimate: UsageEstimator): Promise<TokenUsage> {
  return observed.usage ? Promise.resolve(observed.usage) : estimate(observed);
}
