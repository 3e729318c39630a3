import type { GatewayError, GatewayErrorKind } from '../../core/errors.ts';
import { jsonResponse, type GatewayResponse } from '../../http/gateway-http.ts';

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
