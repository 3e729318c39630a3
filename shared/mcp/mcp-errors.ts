import type { GatewayError, GatewayErrorKind } from '../core/errors.ts';
import { jsonResponse, type GatewayResponse } from '../http/gateway-http.ts';

/**
 * JSON-RPC error codes for the bridge's HTTP refusals: the standard ones where they fit, else the
 * implementation-defined server-error range, as the MCP SDK's own transport uses them.
 */
const jsonRpcCode: Record<GatewayErrorKind, number> = {
  invalid_request: -32600,
  // Not -32001, the MCP SDK's RequestTimeout: a client would take a refused key for a time-out and retry.
  authentication: -32000,
  payment_required: -32000,
  permission: -32003,
  not_found: -32601,
  method_not_allowed: -32000,
  request_too_large: -32000,
  rate_limited: -32029,
  upstream: -32000,
  config_unavailable: -32000,
  internal: -32603,
};

/** A body the gateway cannot read as JSON is a parse error, as the SDK's transport answers a body that is not JSON. */
const PARSE_ERROR_CODES = new Set(['invalid_utf8', 'json_too_deep']);
const JSON_RPC_PARSE_ERROR = -32700;

/**
 * A refusal before the MCP layer runs (key, project, MCP disabled, rate limit): the HTTP status of the
 * refusal, and a JSON-RPC error body with no id (the request was not read as JSON-RPC) that MCP clients
 * show. `data` carries the gateway's code and status for programs.
 */
export function renderMcpError(error: GatewayError, headers: Record<string, string>): GatewayResponse {
  const challenge: Record<string, string> = error.status === 401 ? { 'www-authenticate': 'Bearer realm="model-gateway"' } : {};
  return jsonResponse(
    error.status,
    {
      jsonrpc: '2.0',
      id: null,
      error: { code: PARSE_ERROR_CODES.has(error.code) ? JSON_RPC_PARSE_ERROR : jsonRpcCode[error.kind], message: error.publicMessage, data: { type: error.kind, code: error.code, status: error.status } },
    },
    { ...challenge, ...error.headers, ...headers },
  );
}
