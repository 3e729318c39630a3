import type { TokenUsage } from '../../core/token-usage.ts';
import type { Presentation } from '../wire-protocol.ts';
import { reasoningExcluded } from './chat-request.ts';
import { withoutReasoningFields } from './chat-reasoning-fields.ts';
import { carriesProviderCost, withoutProviderCost } from '../provider-cost.ts';
import { completeChatUsage, renderChatUsage, stringifyWithUsageCost } from './chat-usage.ts';

/**
 * A native chat completion as the client sees it: unchanged, unless usage-cost injection is on; then
 * `usage` gains `cost` and the detail counts the upstream left out (and is added, estimated, when it sent none).
 * The provider's own price (OpenRouter's `usage.cost`) is never shown: it is not what the gateway bills.
 * Reasoning the client excluded (OpenRouter's `reasoning.exclude`, `include_reasoning: false`) is taken out.
 */
export function presentChatCompletion(text: string, upstreamPayload: Record<string, unknown>, usage: TokenUsage, presentation: Presentation): string {
  const hidden = reasoningExcluded(presentation.clientBody) ? withoutReasoningFields(upstreamPayload, 'message') : undefined;
  const payload = hidden?.payload ?? upstreamPayload;
  if (!presentation.injectCost) {
    if (carriesProviderCost(payload)) return JSON.stringify({ ...payload, usage: withoutProviderCost(payload.usage as Record<string, unknown>) });
    return hidden ? JSON.stringify(payload) : text;
  }
  const shown = usage.estimated || typeof payload.usage !== 'object' || payload.usage === null ? renderChatUsage(usage) : completeChatUsage(payload.usage as Record<string, unknown>, usage);
  return stringifyWithUsageCost(payload, shown, presentation.priceUsd(usage));
}
