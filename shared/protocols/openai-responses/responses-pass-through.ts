import type { CanonicalEvent } from '../../canonical/canonical-events.ts';
import { asJsonObject } from '../../core/json-object.ts';
import type { GatewayError } from '../../core/errors.ts';
import type { UpstreamEvent } from '../../transport/stream-decoder.ts';
import type { ClientStream, Presentation } from '../wire-protocol.ts';
import { responsesFailureFrames, responsesFailureOfGatewayError } from './responses-errors.ts';
import { stringifyWithResponseCost } from './responses-event-frame.ts';
import { carriesProviderCost, withoutProviderCost } from '../provider-cost.ts';
import { renderResponsesUsage } from './responses-usage.ts';

const TERMINAL_EVENTS = new Set(['response.completed', 'response.incomplete', 'response.failed']);

/**
 * What a Responses client sees of a native Responses stream: every event with its original bytes (unknown
 * event types and fields included), but for the provider's own price (OpenRouter's `usage.cost`), which never
 * reaches a client. Usage is always in a Responses stream, so nothing else is hidden; with
 * usage-cost injection on, the terminal event's `response.usage` gains `cost` (the upstream's usage, or the
 * gateway's estimate when it reported none). When the gateway fails after the first byte (the upstream
 * broke off), the stream ends as OpenAI ends a failed one: an `error` event and response.failed, numbered
 * after the last event the client saw.
 */
export function createResponsesPassThrough(presentation: Pick<Presentation, 'injectCost' | 'priceUsd' | 'finalUsage'>): Omit<ClientStream, 'fail'> & { fail(error: GatewayError): string } {
  let lastSequence = -1;
  let response: Record<string, unknown> = {};
  let ended = false;

  async function withCost(event: UpstreamEvent, payload: Record<string, unknown>, canonical: readonly CanonicalEvent[]): Promise<string> {
    const terminal = asJsonObject(payload.response) ?? {};
    const reported = canonical.find((item) => item.type === 'usage');
    const usage = reported?.usage ?? (await presentation.finalUsage());
    const reportedUsage = asJsonObject(terminal.usage);
    const shown = reportedUsage ? withoutProviderCost(reportedUsage) : renderResponsesUsage(usage);
    return reframed(event, stringifyWithResponseCost((cost) => withResponseUsage(payload, terminal, cost(shown)), presentation.priceUsd(usage)));
  }

  /** The terminal event without the provider's own price in its response's usage (OpenRouter's `cost`). */
  function withoutProviderPrice(event: UpstreamEvent, payload: Record<string, unknown>, terminal: Record<string, unknown>): string {
    return reframed(event, JSON.stringify(withResponseUsage(payload, terminal, withoutProviderCost(asJsonObject(terminal.usage) ?? {}))));
  }

  return {
    async push(event, canonical) {
      const payload = event.payload;
      if (!payload) return event.raw;
      if (typeof payload.sequence_number === 'number') lastSequence = Math.max(lastSequence, payload.sequence_number);
      const type = typeof payload.type === 'string' ? payload.type : '';
      const current = asJsonObject(payload.response);
      if (current) response = current;
      if (!TERMINAL_EVENTS.has(type)) return event.raw;
      ended = true;
      if (presentation.injectCost) return withCost(event, payload, canonical);
      return current && carriesProviderCost(current) ? withoutProviderPrice(event, payload, current) : event.raw;
    },
    end: () => '',
    fail(error) {
      if (ended) return '';
      ended = true;
      return responsesFailureFrames(responsesFailureOfGatewayError(error), lastSequence + 1, response);
    },
  };
}

/** An event with new data, under its own `event:` line. */
function reframed(event: UpstreamEvent, data: string): string {
  const eventLine = /^event:.*$/m.exec(event.raw)?.[0];
  return `${eventLine ? `${eventLine}\n` : ''}data: ${data}\n\n`;
}

/** A terminal event's payload with its response's usage replaced. */
function withResponseUsage(payload: Record<string, unknown>, terminal: Record<string, unknown>, usage: unknown): Record<string, unknown> {
  return { ...payload, response: { ...terminal, usage } };
}
