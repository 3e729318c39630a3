import type { CanonicalErrorType } from '../../canonical/canonical-events.ts';
import type { GatewayError, GatewayErrorKind } from '../../core/errors.ts';
import { jsonResponse, type GatewayResponse } from '../../http/gateway-http.ts';
import { credentialRefused, isCredentialRefusal, readErrorWords, redactSecrets, type UpstreamErrorAnswer } from '../../transport/upstream-errors.ts';
import type { ErrorWords } from '../wire-protocol.ts';

/**
 * Anthropic's `error.type` for each kind of gateway error, with the statuses Anthropic documents
 * (400 invalid_request_error … 529 overloaded_error). Kinds Anthropic has no type for:
 * - method_not_allowed (405) is a malformed request: invalid_request_error.
 * - upstream (502) is a failure behind the API: api_error, Anthropic's type for its own 500s.
 * - config_unavailable (503) is api_error too, not overloaded_error: Claude Code reacts to
 *   overloaded_error with model-overload handling (e.g. switching to its fallback model), which would
 *   not help while the gateway's configuration store is down. The 503 status and `retry-after` already
 *   make every Anthropic SDK retry.
 * - internal (500) is api_error, as Anthropic's own 500s are.
 */
const anthropicErrorType: Record<GatewayErrorKind, string> = {
  invalid_request: 'invalid_request_error',
  authentication: 'authentication_error',
  payment_required: 'billing_error',
  permission: 'permission_error',
  not_found: 'not_found_error',
  method_not_allowed: 'invalid_request_error',
  request_too_large: 'request_too_large',
  rate_limited: 'rate_limit_error',
  upstream: 'api_error',
  config_unavailable: 'api_error',
  internal: 'api_error',
};

export interface AnthropicErrorBody {
  type: 'error';
  error: { type: string; message: string };
  request_id?: string;
}

/** Anthropic's error body: `{"type":"error","error":{"type","message"},"request_id"}`. */
export function anthropicErrorBody(error: GatewayError, requestId?: string): AnthropicErrorBody {
  return {
    type: 'error',
    error: { type: anthropicErrorType[error.kind], message: error.publicMessage },
    ...(requestId ? { request_id: requestId } : {}),
  };
}

/**
 * A gateway error as Anthropic's error response. With the request id (the one sent as `x-request-id`), named
 * as Anthropic names its own: `request_id` in the body and a `request-id` header (the SDK's `requestID`).
 */
export function renderAnthropicError(error: GatewayError, headers: Record<string, string>, requestId?: string): GatewayResponse {
  return jsonResponse(error.status, anthropicErrorBody(error, requestId), { ...error.headers, ...headers, ...(requestId ? { 'request-id': requestId } : {}) });
}

/**
 * A relayed error answer with the gateway's request id as Anthropic's bodies name it (`request_id`), when
 * it names none: the error a translation wrote from another provider's (Bedrock's, OpenAI's). One that
 * names the provider's own request keeps it; the `request-id` header names the gateway's either way.
 */
export function withRequestIdInErrorBody(response: GatewayResponse, requestId: string): GatewayResponse {
  if (response.status < 400 || typeof response.body !== 'string' || !response.headers['content-type']?.startsWith('application/json')) return response;
  let body: unknown;
  try {
    body = JSON.parse(response.body);
  } catch {
    return response;
  }
  if (typeof body !== 'object' || body === null || Array.isArray(body) || (body as { type?: unknown }).type !== 'error' || 'request_id' in body) return response;
  return { ...response, body: JSON.stringify({ ...body, request_id: requestId }) };
}

/** After the first streamed byte the status is spent: the error travels as Anthropic's `error` event. */
export function anthropicStreamErrorFrame(error: GatewayError, requestId?: string): string {
  return `event: error\ndata: ${JSON.stringify(anthropicErrorBody(error, requestId))}\n\n`;
}

const MAX_UPSTREAM_TEXT_LENGTH = 500;

/** An upstream body in Anthropic's error shape, reduced to what a 502 may carry, or undefined. */
export function readAnthropicErrorBody(text: string): AnthropicErrorBody | undefined {
  let payload: unknown;
  try {
    payload = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (typeof payload !== 'object' || payload === null || !('error' in payload)) return undefined;
  const { error } = payload;
  if (typeof error !== 'object' || error === null || !('type' in error) || !('message' in error)) return undefined;
  if (typeof error.type !== 'string' || typeof error.message !== 'string') return undefined;
  const requestId = 'request_id' in payload && typeof payload.request_id === 'string' ? payload.request_id : undefined;
  return { type: 'error', error: { type: error.type, message: error.message }, ...(requestId ? { request_id: requestId } : {}) };
}

/**
 * The client's answer to an upstream error (the rule, since Claude Code's recovery matches on
 * Anthropic's wording): a 4xx keeps its status and body; anything else becomes 502 keeping the upstream's
 * error `type` and `message`, or `api_error` with the upstream's text when the body is not Anthropic's.
 * The one change ever made is removing the provider's key, should the upstream echo it.
 */
export function passThroughUpstreamError(status: number, bodyText: string, options: { apiKey?: string } = {}): GatewayResponse {
  const body = redactSecrets(bodyText, options.apiKey);
  if (status >= 400 && status < 500) {
    const contentType = isJson(body) ? 'application/json' : 'text/plain; charset=utf-8';
    return { status, headers: { 'content-type': contentType }, body };
  }
  const upstream = readAnthropicErrorBody(body);
  if (upstream) return jsonResponse(502, upstream);
  const message = body.trim().slice(0, MAX_UPSTREAM_TEXT_LENGTH) || `The provider failed with HTTP ${status}.`;
  return jsonResponse(502, { type: 'error', error: { type: 'api_error', message } } satisfies AnthropicErrorBody);
}

function isJson(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

const fromAnthropic: Record<string, CanonicalErrorType> = {
  invalid_request_error: 'invalid-request',
  authentication_error: 'authentication',
  permission_error: 'permission',
  not_found_error: 'not-found',
  request_too_large: 'request-too-large',
  rate_limit_error: 'rate-limit',
  billing_error: 'billing',
  overloaded_error: 'overloaded',
  timeout_error: 'timeout',
  api_error: 'server',
};

/** Anthropic's `error.type` in canonical words; unknown types are server errors. */
export function mapAnthropicErrorType(type: string | null | undefined): CanonicalErrorType {
  return (type && fromAnthropic[type]) || 'server';
}

const toAnthropic: Record<CanonicalErrorType, string> = {
  'invalid-request': 'invalid_request_error',
  authentication: 'authentication_error',
  permission: 'permission_error',
  'not-found': 'not_found_error',
  'request-too-large': 'request_too_large',
  'rate-limit': 'rate_limit_error',
  billing: 'billing_error',
  overloaded: 'overloaded_error',
  timeout: 'timeout_error',
  server: 'api_error',
};

/** A canonical error type as Anthropic's `error.type` (Claude Code recovers by matching these words). */
export function toAnthropicErrorType(type: CanonicalErrorType): string {
  return toAnthropic[type];
}

/**
 * Anthropic's words for a prompt too long for the context window: the prompt alone ("prompt is too long:
 * 208310 tokens > 200000 maximum"), or with max_tokens ("input length and `max_tokens` exceed context limit: …").
 */
const CONTEXT_WINDOW_EXCEEDED = /^prompt is too long\b|exceed context limit/i;

/**
 * What an Anthropic-shaped error body says (an empty body still gets a message); its type stays as `code`.
 * Anthropic has no type for a full context window, only its message: that is read here, once.
 */
export function readAnthropicErrorWords(body: string): ErrorWords {
  const words = readErrorWords(body);
  const message = words.message.trim() || 'The provider failed.';
  const contextWindowExceeded = words.type === 'invalid_request_error' && CONTEXT_WINDOW_EXCEEDED.test(message);
  return { type: mapAnthropicErrorType(words.type), message, ...(words.type ? { code: words.type } : {}), ...(contextWindowExceeded ? { contextWindowExceeded } : {}) };
}

/** An upstream error's words as Anthropic's error body. */
export function writeAnthropicErrorBody(words: ErrorWords): string {
  return JSON.stringify({ type: 'error', error: { type: toAnthropicErrorType(words.type), message: words.message } });
}

/**
 * An upstream's error as the messages client sees it: Claude Code's recovery matches on Anthropic's own
 * wording, so bodies pass through. A rejected provider credential (401/403) is the gateway's problem, not
 * the client's key: it becomes the gateway's own 502 `api_error`, never the upstream's words, which Claude
 * Code reads as its own login failing ("invalid x-api-key"). (The pipeline already answers those with its
 * own error, naming the provider; this holds for any other caller.)
 */
export function relayAnthropicUpstreamError(answer: UpstreamErrorAnswer): GatewayResponse {
  if (isCredentialRefusal(answer.status)) return renderAnthropicError(credentialRefused(answer.status), {});
  const response = passThroughUpstreamError(answer.status, answer.body);
  if (answer.retryAfter) response.headers['retry-after'] = answer.retryAfter;
  return response;
}
