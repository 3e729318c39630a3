import type { CanonicalEvent } from '../../canonical/canonical-events.ts';
import { ZERO_USAGE, type TokenUsage } from '../../core/token-usage.ts';
import type { UpstreamEvent } from '../../transport/stream-decoder.ts';
import type { ClientStream, Presentation } from '../wire-protocol.ts';
import { reasoningExcluded } from './chat-request.ts';
import { withoutReasoningFields } from './chat-reasoning-fields.ts';
import { carriesProviderCost, withoutProviderCost } from '../provider-cost.ts';
import { completeChatUsage, renderChatUsage, stringifyWithUsageCost } from './chat-usage.ts';

/**
 * What a chat client sees of a native chat stream. Every event passes with its original bytes, except
 * the usage chunk (the gateway always asks the upstream for usage): shown with `cost` (injection on), shown
 * as sent (the client asked), or hidden (neither; a chunk that also carries choices keeps them). When the
 * client must see usage and the upstream sent none, an estimated usage chunk comes before `[DONE]` (or at
 * the end of a stream without one), unless the upstream ended the stream with an error, which is its last
 * word. Reasoning the client excluded is taken out of the chunks (one that held only reasoning is not
 * sent). Legacy completions stream the same way (`chunkObject`: `text_completion`).
 */
export function createChatPassThrough(presentation: Presentation, chunkObject = 'chat.completion.chunk'): ClientStream {
  const usageWanted = presentation.injectCost || presentation.showUsage;
  const hideReasoning = reasoningExcluded(presentation.clientBody);
  let usageShown = false;
  let failed = false;
  let reportedUsage: TokenUsage = ZERO_USAGE;
  const envelope = { id: '', object: chunkObject, created: 0, model: '' };

  function remember(payload: Record<string, unknown>): void {
    if (!envelope.id && typeof payload.id === 'string') envelope.id = payload.id;
    if (!envelope.model && typeof payload.model === 'string') envelope.model = payload.model;
    if (!envelope.created && typeof payload.created === 'number') envelope.created = payload.created;
  }

  function present(payload: Record<string, unknown>, raw: string): string {
    if (presentation.injectCost) {
      usageShown = true;
      return `data: ${stringifyWithUsageCost(payload, completeChatUsage(payload.usage as Record<string, unknown>, reportedUsage), presentation.priceUsd(reportedUsage))}\n\n`;
    }
    if (presentation.showUsage) {
      usageShown = true;
      // As sent, less the provider's own price (OpenRouter's), which is not what the gateway bills.
      return carriesProviderCost(payload) ? `data: ${JSON.stringify({ ...payload, usage: withoutProviderCost(payload.usage as Record<string, unknown>) })}\n\n` : raw;
    }
    const hasChoices = Array.isArray(payload.choices) && payload.choices.length > 0;
    if (!hasChoices) return '';
    const { usage: _hidden, ...withoutUsage } = payload;
    return `data: ${JSON.stringify(withoutUsage)}\n\n`;
  }

  async function missingUsageChunk(): Promise<string> {
    if (!usageWanted || usageShown || failed) return '';
    usageShown = true;
    const usage = await presentation.finalUsage();
    const chunk = { ...envelope, choices: [] };
    if (presentation.injectCost) return `data: ${stringifyWithUsageCost(chunk, renderChatUsage(usage), presentation.priceUsd(usage))}\n\n`;
    return `data: ${JSON.stringify({ ...chunk, usage: renderChatUsage(usage) })}\n\n`;
  }

  return {
    async push(event: UpstreamEvent, canonical: readonly CanonicalEvent[]) {
      if (event.data?.trim() === '[DONE]') return (await missingUsageChunk()) + event.raw;
      if (!event.payload) return event.raw;
      remember(event.payload);
      if (canonical.some((item) => item.type === 'error')) failed = true;
      const hidden = hideReasoning ? withoutReasoningFields(event.payload, 'delta') : undefined;
      if (hidden?.empty) return '';
      const payload = hidden?.payload ?? event.payload;
      const raw = hidden ? `data: ${JSON.stringify(payload)}\n\n` : event.raw;
      const usage = canonical.find((item) => item.type === 'usage');
      if (!usage) return raw;
      reportedUsage = usage.usage;
      return present(payload, raw);
    },
    end: missingUsageChunk,
  };
}
