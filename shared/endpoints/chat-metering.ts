import type { TokenUsage } from '../core/price-usage.ts';
import { formatUsd, priceUsage } from '../core/price-usage.ts';
import type { RateCardEntry } from '../core/project-config.ts';
import { createChatStreamMeter, isDoneEvent } from '../protocols/openai-chat/chat-stream-meter.ts';
import { chatPromptText, countTokens } from '../tokenizer/estimate-tokens.ts';
import type { SseEventHandler } from '../transport/sse-relay.ts';
import { DEFAULT_MAX_OUTPUT_TOKENS, type UsageEstimate } from '../pipeline/admit-usage.ts';

/**
 * A quick bound for admission (rate limits, balance reservation): the prompt at about four characters a
 * token (no tokenizer on the hot path) and the request's output cap.
 */
export function estimateChatUsageBound(request: { messages: readonly unknown[]; max_tokens?: unknown; max_completion_tokens?: unknown }): UsageEstimate {
  const cap = [request.max_completion_tokens, request.max_tokens].find((value): value is number => typeof value === 'number' && value > 0);
  return {
    promptTokens: Math.ceil(chatPromptText(request.messages).length / 4),
    maxOutputTokens: cap ?? DEFAULT_MAX_OUTPUT_TOKENS,
    outputCapGiven: cap !== undefined,
  };
}

/** Prices a usage as the exact USD decimal shown to clients. */
export function usdPricer(rate: RateCardEntry): (usage: TokenUsage) => string {
  return (usage) => formatUsd(priceUsage(usage, rate));
}

/**
 * Estimates a chat request's usage with the tokenizer when the upstream reported none. The prompt is
 * counted once, however often the estimate is asked for.
 */
export function chatUsageEstimator(messages: readonly unknown[]): (completionText: string) => Promise<TokenUsage> {
  let promptTokens: Promise<number> | undefined;
  return async (completionText) => {
    promptTokens ??= countTokens(chatPromptText(messages));
    return {
      promptTokens: await promptTokens,
      completionTokens: await countTokens(completionText),
      cachedTokens: 0,
      reasoningTokens: 0,
      estimated: true,
    };
  };
}

/**
 * The chat stream's event handler: the meter sees every event; a usage chunk the client must see but the
 * upstream never sent is added (estimated) before `[DONE]`, or at the end of a stream without one.
 */
export function createChatStreamHandler(options: {
  clientAskedForUsage: boolean;
  injectCost: boolean;
  rate: RateCardEntry;
  estimate: (completionText: string) => Promise<TokenUsage>;
}) {
  const meter = createChatStreamMeter({ clientAskedForUsage: options.clientAskedForUsage, injectCost: options.injectCost, priceUsd: usdPricer(options.rate) });
  const missingUsageChunk = async () =>
    meter.needsUsageChunk() ? meter.renderMissingUsageChunk(await options.estimate(meter.result().completionText)) : '';
  const handler: SseEventHandler = {
    async onEvent(event) {
      if (isDoneEvent(event)) return (await missingUsageChunk()) + meter.push(event);
      return meter.push(event);
    },
    onEnd: missingUsageChunk,
  };
  /** The usage to record: what the upstream reported, else the estimate. */
  const finalUsage = async (): Promise<TokenUsage> => meter.result().usage ?? options.estimate(meter.result().completionText);
  return { handler, meter, finalUsage };
}
