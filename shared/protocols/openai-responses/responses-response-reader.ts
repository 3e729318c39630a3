import type { CanonicalOutput, CanonicalResponse } from '../../canonical/canonical-response.ts';
import { parseProviderPayload } from '../../canonical/read-payload.ts';
import { GatewayError } from '../../core/errors.ts';
import { readReasoningCarrier } from './reasoning-carrier.ts';
import { mapResponsesStatus } from './responses-status.ts';
import { readResponseObjectUsage } from './responses-usage.ts';
import { responsesObjectSchema, type ResponsesOutputItem } from './responses-wire-types.ts';

/** Whether a complete answer is a response object: one has `output` (a failed response too, with its `error`). */
export function isResponseObject(payload: Record<string, unknown>): boolean {
  return Array.isArray(payload.output);
}

/**
 * A response object in canonical terms: message text (output_text and refusals), function and custom tool
 * calls, reasoning (summary text and encrypted content), the end (status and incomplete reason) and usage.
 * Items of hosted tools (web search, file search, …) ran inside OpenAI and have no canonical form. A failed
 * response is an upstream failure, with the provider's words.
 */
export function readResponsesResponse(payload: unknown): CanonicalResponse {
  const response = parseProviderPayload(responsesObjectSchema, payload);
  if (!response || (!response.output && response.usage === undefined)) {
    throw new GatewayError('upstream', 'The upstream answered with a body that is not a response.', { code: 'upstream_invalid_response' });
  }
  if (response.status === 'failed') {
    throw new GatewayError('upstream', `The upstream response failed: ${response.error?.message ?? 'no reason given'}.`, { code: response.error?.code ?? 'upstream_response_failed' });
  }
  const content = (response.output ?? []).flatMap(readOutputItem);
  const usage = readResponseObjectUsage(response);
  const end = mapResponsesStatus(response.status, response.incomplete_details?.reason, content.some((part) => part.type === 'tool-call'));
  return {
    id: response.id ?? '',
    model: response.model ?? '',
    content,
    finish: end.reason,
    ...(end.raw ? { rawFinish: end.raw } : {}),
    ...(usage ? { usage } : {}),
  };
}

function readOutputItem(item: ResponsesOutputItem): CanonicalOutput[] {
  switch (item.type) {
    case 'message':
      return (item.content ?? []).flatMap((part) => {
        const text = part.type === 'refusal' ? part.refusal : part.text;
        return text ? [{ type: 'text' as const, text }] : [];
      });
    case 'function_call':
      return [{ type: 'tool-call', id: item.call_id ?? item.id ?? '', name: item.name ?? '', arguments: item.arguments ?? '' }];
    case 'custom_tool_call':
      return [{ type: 'tool-call', id: item.call_id ?? item.id ?? '', name: item.name ?? '', arguments: item.input ?? '', custom: true }];
    case 'reasoning': {
      const text = (item.summary ?? []).flatMap((part) => (part.text ? [part.text] : [])).join('\n\n');
      const carried = readReasoningCarrier(item.encrypted_content);
      return text || carried ? [{ type: 'reasoning', text, ...carried }] : [];
    }
    default:
      return [];
  }
}
