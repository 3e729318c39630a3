import type { CanonicalEvent } from '../../canonical/canonical-events.ts';
import { asJsonObject } from '../../core/json-object.ts';
import type { GatewayError } from '../../core/errors.ts';
import type { UpstreamEvent } from '../../transport/stream-decoder.ts';
import type { ClientStream, Presentation } from '../wire-protocol.ts';
import { responsesFailureFrames, responsesFailureOfGatewayError } from './responses-errors.ts';
import { stringifyWithResponseCost } from './responses-event-frame.ts';
import { renderResponsesUsage } from './responses-usage.ts';

const TERMINAL_EVENTS = new Set(['response.completed', 'response.incomplete', 'response.failed']);

/**
 * What a Responses client sees of a native Responses stream: every event with its original bytes (unknown
 * event types and fields included). Usage is always in a Responses stream, so nothing is hidden; with
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
    const shown = asJsonObject(terminal.usage) ?? renderResponsesUsage(usage);
    const data = stringifyWithResponseCost((cost) => ({ ...payload, response: { ...terminal, usage: cost(shown) } }), presentation.priceUsd(usage));
    const eventLine = /^event:.*$/m.exec(event.raw)?.[0];
    return `${eventLine ? `${eventLine}\n` : ''}data: ${data}\n\n`;
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
      return presentation.injectCost ? withCost(event, payload, canonical) : event.raw;
    },
    end: () => '',
    fail(error) {
      if (ended) return '';
      ended = true;
      return responsesFailureFrames(responsesFailureOfGatewayError(error), lastSequence + 1, response);
    },
  };
}
