import type { CanonicalErrorType } from '../../canonical/canonical-events.ts';
import type { GatewayError, GatewayErrorKind } from '../../core/errors.ts';
import { jsonResponse, type GatewayResponse } from '../../http/gateway-http.ts';
import { readErrorWords, type UpstreamErrorAnswer } from '../../transport/upstream-errors.ts';
import type { ErrorWords } from '../wire-protocol.ts';

/** OpenAI's `error.type` for each kind of gateway error. */
const openAiErrorType: Record<GatewayErrorKind, string> = {
  invalid_request: 'invalid_request_error',
  authentication: 'authentication_error',
  payment_required: 'insufficient_quota',
  permission: 'permission_error',
  not_found: 'not_found_error',
  method_not_allowed: 'invalid_request_error',
  request_too_large: 'invalid_request_error',
  rate_limited: 'rate_limit_error',
  upstream: 'upstream_error',
  config_unavailable: 'service_unavailable_error',
  internal: 'server_error',
};

/** The OpenAI error body: `{"error": {"message", "type", "code", "param"}}`. */
export function openAiErrorBody(error: GatewayError) {
  return {
    error: {
      message: error.publicMessage,
      type: openAiErrorType[error.kind],
      code: error.code,
      param: error.param ?? null,
    },
  };
}

export function renderOpenAiError(error: GatewayError, headers: Record<string, string>): GatewayResponse {
  return jsonResponse(error.status, openAiErrorBody(error), { ...error.headers, ...headers });
}

/** After the first streamed byte the status is spent: the error travels as one SSE data frame. */
export function openAiStreamErrorFrame(error: GatewayError): string {
  return `data: ${JSON.stringify(openAiErrorBody(error))}\n\n`;
}

const fromOpenAi: Record<string, CanonicalErrorType> = {
  invalid_request_error: 'invalid-request',
  authentication_error: 'authentication',
  invalid_api_key: 'authentication',
  permission_error: 'permission',
  not_found_error: 'not-found',
  model_not_found: 'not-found',
  rate_limit_error: 'rate-limit',
  rate_limit_exceeded: 'rate-limit',
  requests: 'rate-limit',
  tokens: 'rate-limit',
  insufficient_quota: 'billing',
  overloaded_error: 'overloaded',
  server_overloaded: 'overloaded',
  timeout: 'timeout',
};

/**
 * An OpenAI-compatible error's `type` (or, failing that, its `code`) in canonical words. OpenAI puts the
 * telling word in either field depending on the error, so both are tried; the rest are server errors.
 */
export function mapChatErrorType(type: string | null | undefined, code?: string | null): CanonicalErrorType {
  return (type && fromOpenAi[type]) || (code && fromOpenAi[code]) || 'server';
}

const toOpenAi: Record<CanonicalErrorType, string> = {
  'invalid-request': 'invalid_request_error',
  authentication: 'authentication_error',
  permission: 'permission_error',
  'not-found': 'not_found_error',
  'request-too-large': 'invalid_request_error',
  'rate-limit': 'rate_limit_error',
  billing: 'insufficient_quota',
  overloaded: 'server_error',
  timeout: 'server_error',
  server: 'server_error',
};

/** A canonical error type as OpenAI's `error.type`. */
export function toChatErrorType(type: CanonicalErrorType): string {
  return toOpenAi[type];
}

/** What an OpenAI-shaped error body says (an empty body still gets a message); its code and param are kept. */
export function readOpenAiErrorWords(body: string): ErrorWords {
  const words = readErrorWords(body);
  const code = words.code ?? words.type;
  return {
    type: mapChatErrorType(words.type, words.code),
    message: words.message.trim() || 'The provider failed.',
    ...(code ? { code } : {}),
    ...(words.param ? { param: words.param } : {}),
  };
}

/**
 * An upstream error's words as an OpenAI error body; the upstream's own code (or type) stays in `code`, but
 * a full context window is OpenAI's `context_length_exceeded`, the code its clients recover on (Codex
 * compacts the conversation; otherwise it shows the error and stops).
 */
export function writeOpenAiErrorBody(words: ErrorWords): string {
  const code = words.contextWindowExceeded ? 'context_length_exceeded' : (words.code ?? null);
  return JSON.stringify({ error: { message: words.message, type: toChatErrorType(words.type), code, param: words.param ?? null } });
}

/**
 * An upstream's refusal of the request as an OpenAI client sees it: the provider's own status and words
 * (they help the client most), already scrubbed of the provider key.
 */
export function relayOpenAiUpstreamError(answer: UpstreamErrorAnswer): GatewayResponse {
  return { status: answer.status, headers: { 'content-type': answer.contentType ?? 'application/json' }, body: answer.body };
}

/** How the `/v1/*` route group answers a provider's refusal (relayUpstreamRefusal: a body that is only text becomes OpenAI's error). */
export const openAiRefusals = { writeErrorBody: writeOpenAiErrorBody, relayUpstreamError: relayOpenAiUpstreamError };
