import type { GatewayRequest, GatewayResponse } from './gateway-http.ts';

/**
 * Cross-origin access for browser clients (a web app calling the gateway with the OpenAI or Anthropic SDK
 * in the browser, a browser MCP client), as OpenRouter and LiteLLM allow it: every origin, no cookies. The
 * gateway authenticates by a key the client sends itself, never by anything a browser attaches on its own,
 * so a page of another site gains nothing it could not do without the browser (docs/decisions/cors.md).
 */
const ANY_ORIGIN = { 'access-control-allow-origin': '*' } as const;

/** Every response's own headers (request ids, retry-after, the model that served) readable by the page's script. */
const EXPOSED = { 'access-control-expose-headers': '*' } as const;

/** How long a browser may keep a preflight's answer, in seconds (browsers cap it: Chromium at 2 hours). */
const PREFLIGHT_MAX_AGE_SECONDS = '86400';

/** A comma-separated list of header names (RFC 9110 tokens), as a browser writes Access-Control-Request-Headers. */
const HEADER_NAME_LIST = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+(?:[ \t]*,[ \t]*[!#$%&'*+.^_`|~0-9A-Za-z-]+)*$/;

/** The `Allow` header of a path whose routes take `methods`: HEAD wherever GET is (HTTP's rule), and OPTIONS. */
export function allowedMethods(methods: readonly string[]): string {
  return [...new Set([...methods, ...(methods.includes('GET') ? ['HEAD'] : []), 'OPTIONS'])].join(', ');
}

/** The headers every answer carries for a browser client (one object for all: it is copied, never changed). */
export const CORS_HEADERS: Readonly<Record<string, string>> = Object.freeze({ ...ANY_ORIGIN, ...EXPOSED });

/**
 * The answer to `OPTIONS` on a path the gateway serves: 204 with the path's methods, and for a browser's
 * preflight the headers it asked to send (Authorization, x-api-key, anthropic-version, the SDKs' own…).
 * A header list that is not one is left out, and the browser refuses the request as it refuses others.
 */
export function optionsResponse(request: GatewayRequest, methods: readonly string[]): GatewayResponse {
  const allowed = allowedMethods(methods);
  const headers: Record<string, string> = { allow: allowed, ...ANY_ORIGIN };
  if (request.headers['access-control-request-method'] !== undefined) {
    headers['access-control-allow-methods'] = allowed;
    headers['access-control-max-age'] = PREFLIGHT_MAX_AGE_SECONDS;
    const asked = request.headers['access-control-request-headers']?.trim();
    if (asked && HEADER_NAME_LIST.test(asked)) headers['access-control-allow-headers'] = asked;
  }
  return { status: 204, headers, body: '' };
}
