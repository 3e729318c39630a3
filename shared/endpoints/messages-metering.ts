import type { TokenUsage } from '../core/price-usage.ts';
import { messagesPromptText } from '../protocols/anthropic-messages/count-tokens.ts';
import type { MessagesRequest } from '../protocols/anthropic-messages/messages-request.ts';
import { countTokens } from '../tokenizer/estimate-tokens.ts';

/**
 * Estimates a messages request's usage with the tokenizer when the upstream reported none (or a stream
 * was cut before its final usage): the upstream's input count is kept when it gave one.
 */
export function messagesUsageEstimator(request: MessagesRequest) {
  let promptTokens: Promise<number> | undefined;
  return async (observed: { usage?: TokenUsage; completionText: string }): Promise<TokenUsage> => {
    promptTokens ??= countTokens(messagesPromptText(request));
    return {
      promptTokens: observed.usage?.promptTokens ?? (await promptTokens),
      completionTokens: Math.max(observed.usage?.completionTokens ?? 0, await countTokens(observed.completionText)),
      cachedTokens: observed.usage?.cachedTokens ?? 0,
      reasoningTokens: 0,
      ...(observed.usage?.cacheWriteTokens ? { cacheWriteTokens: observed.usage.cacheWriteTokens } : {}),
      estimated: true,
    };
  };
}
