import { asJsonObject } from '../../core/json-object.ts';
import type { TokenUsage } from '../../core/token-usage.ts';
import type { Presentation } from '../wire-protocol.ts';
import { stringifyWithResponseCost } from './responses-event-frame.ts';
import { carriesProviderCost, withoutProviderCost } from '../provider-cost.ts';
import { renderResponsesUsage } from './responses-usage.ts';

/**
 * A native response object as the client sees it: unchanged but for the provider's own price (OpenRouter's
 * `usage.cost`), which never reaches a client, unless usage-cost injection is on; then `usage` gains the
 * gateway's `cost` (and is added, estimated, when the upstream reported none).
 */
export function presentResponsesObject(text: string, payload: Record<string, unknown>, usage: TokenUsage, presentation: Presentation): string {
  const reported = asJsonObject(payload.usage);
  if (!presentation.injectCost) return reported && carriesProviderCost(payload) ? JSON.stringify({ ...payload, usage: withoutProviderCost(reported) }) : text;
  const shown = usage.estimated || !reported ? renderResponsesUsage(usage) : withoutProviderCost(reported);
  return stringifyWithResponseCost((withCost) => ({ ...payload, usage: withCost(shown) }), presentation.priceUsd(usage));
}
