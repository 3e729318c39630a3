import { GatewayError } from '../core/errors.ts';

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
  /** The body's bytes as the client sent them (uploads stay intact; JSON routes decode with bodyText). */
  body: Uint8Array;
  sourceIp: string;
}

const strictUtf8 = new TextDecoder('utf-8', { fatal: true });

/** The body as text, decoded strictly: bytes that are not UTF-8 are a 400, never replaced and forwarded. */
export function bodyText(request: Pick<GatewayRequest, 'body'>): string {
  try {
    return strictUtf8.decode(request.body);
  } catch {
    throw new GatewayError('invalid_request', 'The request body is not valid UTF-8.', { code: 'invalid_utf8' });
  }
}

export interface GatewayResponse {
  status: number;
  headers: Record<string, string>;
  body: string | ReadableStream<Uint8Array>;
  /**
   * Work that waits until the client's answer has ended (handing the usage record over): the host runs it
   * once the body is written, and does not end the invocation before it is done.
   */
  afterAnswer?: () => Promise<void>;
}

export function jsonResponse(status: number, payload: unknown, headers: Record<string, string> = {}): GatewayResponse {
  return {
    status,
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(payload),
  };
}
