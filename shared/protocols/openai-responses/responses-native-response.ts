import { asJsonObject } from '../../core/json-object.ts';
import type { TokenUsage } from '../../core/token-usage.ts';
import type { Presentation } from '../wire-protocol.ts';
import { stringifyWithResponseCost } from './responses-event-frame.ts';
import { renderResponsesUsage } from './responses-usage.ts';

/**
 * A native response object as the client sees it: unchanged, unless usage-cost injection is on; then
 * `usage` gains `cost` (and is added, estimated, when the upstream reported none).
 */
export function presentResponsesObject(text: string, payload: Record<string, unknown>, usage: TokenUsage, presentation: Presentation): string {
  if (!presentation.injectCost) return text;
  const reported = asJsonObject(payload.usage);
  const shown = usage.estimated || !reported ? renderResponsesUsage(usage) : reported;
  return stringifyWithResponseCost((withCost) => ({ ...payload, usage: withCost(shown) }), presentation.priceUsd(usage));
}
