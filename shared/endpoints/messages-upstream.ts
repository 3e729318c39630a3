import type { GatewayRequest, GatewayResponse } from '../http/gateway-http.ts';
import { passThroughUpstreamError } from '../protocols/anthropic-messages/anthropic-errors.ts';
import type { UpstreamErrorAnswer } from '../transport/upstream-errors.ts';

export const DEFAULT_ANTHROPIC_VERSION = '2023-06-01';

/**
 * The headers an Anthropic-protocol upstream receives: its own key in `x-api-key` (the client's `gw.` key
 * never leaves the gateway) and the client's `anthropic-version` and `anthropic-beta` as received (the
 * spec's generic `upstream-version` / `upstream-beta` names are accepted too).
 */
export function anthropicUpstreamHeaders(request: GatewayRequest, streaming: boolean) {
  const version = request.headers['anthropic-version'] ?? request.headers['upstream-version'] ?? DEFAULT_ANTHROPIC_VERSION;
  const beta = request.headers['anthropic-beta'] ?? request.headers['upstream-beta'];
  return (apiKey: string | undefined): Record<string, string> => ({
    'content-type': 'application/json',
    accept: streaming ? 'text/event-stream' : 'application/json',
    'anthropic-version': version,
    ...(beta ? { 'anthropic-beta': beta } : {}),
    ...(apiKey ? { 'x-api-key': apiKey } : {}),
  });
}

/**
 * An upstream's error as the messages client sees it: Claude Code's recovery matches on Anthropic's own
 * wording, so bodies pass through. A rejected provider credential (401/403) is the gateway's problem,
 * not the client's key: it becomes 502 like a 5xx, keeping the upstream's error type and message.
 */
export function relayUpstreamError(answer: UpstreamErrorAnswer): GatewayResponse {
  const status = answer.status === 401 || answer.status === 403 ? 502 : answer.status;
  const response = passThroughUpstreamError(status, answer.body);
  if (answer.retryAfter) response.headers['retry-after'] = answer.retryAfter;
  return response;
}
