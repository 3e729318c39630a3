import type { CanonicalEvent } from '../canonical/canonical-events.ts';
import type { TokenUsage } from '../core/token-usage.ts';
import { asJsonObject } from '../core/json-object.ts';
import type { UpstreamEvent } from '../transport/stream-decoder.ts';
import { stringifyWithUsageCost } from './openai-chat/chat-usage.ts';
import type { ClientStream, Presentation } from './wire-protocol.ts';

/**
 * A native JSON answer as the client sees it: as sent, unless usage-cost injection is on; then its
 * `usage` object (whatever the API's shape of it) gains `cost`. When the upstream reported no usage the
 * gateway could read, `renderUsage` writes the metered one in the API's shape; without it, `usage` holds
 * only `cost`.
 */
export function presentWithUsageCost(
  text: string,
  payload: Record<string, unknown>,
  usage: TokenUsage,
  presentation: Presentation,
  renderUsage?: (usage: TokenUsage) => Record<string, unknown>,
): string {
  if (!presentation.injectCost) return text;
  const reported = asJsonObject(payload.usage);
  const shown = renderUsage && (usage.estimated || !reported) ? renderUsage(usage) : (reported ?? {});
  return stringifyWithUsageCost(payload, shown, presentation.priceUsd(usage));
}

/**
 * A native event stream as the client sees it: every event as sent, except that with injection on the
 * event carrying the usage (a transcript's `transcript.text.done`, an image's `…completed`) gains `cost`.
 */
export function usageEventPassThrough(presentation: Presentation): ClientStream {
  return {
    push(event: UpstreamEvent, canonical: readonly CanonicalEvent[]) {
      const usage = canonical.find((item) => item.type === 'usage');
      const reported = asJsonObject(event.payload?.usage);
      if (!presentation.injectCost || !usage || !event.payload || !reported) return event.raw;
      const name = /^event: *(.*)$/m.exec(event.raw)?.[1];
      return `${name ? `event: ${name}\n` : ''}data: ${stringifyWithUsageCost(event.payload, reported, presentation.priceUsd(usage.usage))}\n\n`;
    },
    end: () => '',
  };
}
