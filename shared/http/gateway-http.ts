/**
 * The framework-free request and response the route groups speak. The Lambda adapter builds them from
 * function-URL events; nothing in here knows about Lambda or Node's http module.
 */
export interface GatewayRequest {
  method: string;
  path: string;
  query: URLSearchParams;
  /** Header names in lower case; repeated headers joined with "," as function URLs deliver them. */
  headers: Record<string, string | undefined>;
  body: string;
  sourceIp: string;
}

export interface GatewayResponse {
  status: number;
  headers: Record<string, string>;
  body: string | ReadableStream<Uint8Array>;
}

export function jsonResponse(status: number, payload: unknown, headers: Record<string, string> = {}): GatewayResponse {
  return {
    status,
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(payload),
  };
}
