import type { CanonicalEvent } from '../../canonical/canonical-events.ts';
import { asJsonObject } from '../../core/json-object.ts';
import { stringifyWithUsageCost } from '../openai-chat/chat-usage.ts';
import type { ClientStream, Presentation } from '../wire-protocol.ts';
import { renderAnthropicUsage } from './messages-usage.ts';

/**
 * What a Messages client sees of a native Messages stream: every event byte for byte (thinking, signatures,
 * server tools, unknown events). With usage-cost injection on, the `message_delta` that closes the message
 * gains `usage.cost`, the cost of the whole message (message_start's input counts with the delta's output
 * counts; the gateway's estimate when the upstream reported none). The Anthropic SDK ignores the extra field.
 */
export function createMessagesPassThrough(presentation: Presentation): ClientStream {
  async function withCost(payload: Record<string, unknown>, canonical: readonly CanonicalEvent[]): Promise<string> {
    const usage = canonical.find((item) => item.type === 'usage')?.usage ?? (await presentation.finalUsage());
    const shown = usage.estimated ? renderAnthropicUsage(usage) : (asJsonObject(payload.usage) ?? renderAnthropicUsage(usage));
    return `event: message_delta\ndata: ${stringifyWithUsageCost(payload, shown, presentation.priceUsd(usage))}\n\n`;
  }

  return {
    // Every other event is passed on at once, as it came.
    push: (event, canonical) => (presentation.injectCost && event.payload?.type === 'message_delta' ? withCost(event.payload, canonical) : event.raw),
    end: () => '',
  };
}
