import type { GatewayError } from '../core/errors.ts';
import type { GatewayResponse } from '../http/gateway-http.ts';

/** Every console API answer: never cached, never sniffed, never framed. */
const API_HEADERS = {
  'cache-control': 'no-store',
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
  'referrer-policy': 'no-referrer',
};

export function consoleJson(status: number, payload: unknown): GatewayResponse {
  return { status, headers: { ...API_HEADERS, 'content-type': 'application/json; charset=utf-8' }, body: JSON.stringify(payload) };
}

export function consoleCsv(filename: string, csv: string, extraHeaders: Record<string, string> = {}): GatewayResponse {
  return {
    status: 200,
    headers: { ...API_HEADERS, 'content-type': 'text/csv; charset=utf-8', 'content-disposition': `attachment; filename="${filename}"`, ...extraHeaders },
    body: csv,
  };
}

/** `{ "error": { "code", "message" } }`; internal errors keep their details to the logs. */
export function consoleError(error: GatewayError): GatewayResponse {
  return consoleJson(error.status, { error: { code: error.code, message: error.publicMessage } });
}
