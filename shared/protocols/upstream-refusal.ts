import type { CanonicalErrorType } from '../canonical/canonical-events.ts';
import type { GatewayResponse } from '../http/gateway-http.ts';
import { isJsonErrorBody, isQuotaExhausted, type UpstreamErrorAnswer } from '../transport/upstream-errors.ts';
import type { ClientProtocolSide, ErrorWords } from './wire-protocol.ts';

/** What answering an upstream's refusal takes of the client's protocol. */
export type RefusalWriter = Pick<ClientProtocolSide, 'writeErrorBody' | 'relayUpstreamError'>;

/**
 * An upstream's refusal of the request in the client's protocol, the one rule for every protocol and
 * endpoint. A JSON error body is relayed as the client protocol relays its own (`readWords` absent: the
 * upstream speaks the client's protocol), or read by the upstream protocol's `readWords` and written in the
 * client's. Any other body (a proxy's HTML page, plain text, nothing) is no protocol's error, and an SDK
 * cannot parse it: the client gets its own protocol's error, its type from the status and the excerpt
 * readUpstreamErrorAnswer kept as its message. The status is the upstream's, as the client protocol relays
 * one (Anthropic's turns a 5xx into 502).
 */
export function relayUpstreamRefusal(client: RefusalWriter, answer: UpstreamErrorAnswer, readWords?: (answer: UpstreamErrorAnswer) => ErrorWords): GatewayResponse {
  const words = isJsonErrorBody(answer.body) ? readWords?.(answer) : textErrorWords(answer);
  const relayed = words ? client.relayUpstreamError({ ...answer, contentType: 'application/json', body: client.writeErrorBody(words) }) : client.relayUpstreamError(answer);
  // An account without quota is not waited out: the SDKs obey `x-should-retry: false` instead of retrying a 429.
  if (answer.status !== 429 || !isQuotaExhausted(answer)) return relayed;
  const { 'retry-after': _waitFor, ...headers } = relayed.headers;
  return { ...relayed, headers: { ...headers, 'x-should-retry': 'false' } };
}

/** The words of an error answer whose body is only text: its kind from the status, the text as the message. */
export function textErrorWords(answer: UpstreamErrorAnswer): ErrorWords {
  const message = answer.body.trim() || `The provider answered HTTP ${answer.status} without a message.`;
  return { type: errorTypeOfStatus(answer.status), message };
}

/** The kind of error an HTTP status means, for an error body that names none. */
export function errorTypeOfStatus(status: number): CanonicalErrorType {
  switch (status) {
    case 401:
      return 'authentication';
    case 402:
      return 'billing';
    case 403:
      return 'permission';
    case 404:
      return 'not-found';
    case 413:
      return 'request-too-large';
    case 429:
      return 'rate-limit';
    case 503:
    case 529:
      return 'overloaded';
    case 504:
      return 'timeout';
    default:
      return status >= 400 && status < 500 ? 'invalid-request' : 'server';
  }
}
