import { createHash, timingSafeEqual } from 'node:crypto';
import { configUnavailable, GatewayError } from '../core/errors.ts';
import type { GatewayRequest, GatewayResponse } from '../http/gateway-http.ts';

/**
 * The header CloudFront adds to every origin request (docs/decisions/origin-secret.md). Function URLs use
 * auth type NONE, so this header is what tells a request that came through the distribution from one sent
 * straight to the function URL.
 */
export const ORIGIN_SECRET_HEADER = 'x-gateway-origin-secret';

/** Reads the expected header value (Secrets Manager in AWS). */
export type OriginSecretLoader = () => Promise<string>;

type Serve = (request: GatewayRequest) => Promise<GatewayResponse>;

/**
 * True when the request carries the expected origin secret. Compared in constant time over SHA-256
 * digests, so neither the content nor the length of the secret leaks through timing.
 */
export function verifyOriginSecret(headers: GatewayRequest['headers'], expected: string): boolean {
  const presented = headers[ORIGIN_SECRET_HEADER];
  if (expected === '' || presented === undefined || presented === '') return false;
  return timingSafeEqual(sha256(presented), sha256(expected));
}

export function originNotAllowed(): GatewayError {
  return new GatewayError('permission', 'Requests must be sent to the gateway URL, not to the function directly.', {
    code: 'origin_not_allowed',
  });
}

export interface OriginGuardOptions {
  /** Undefined where no CloudFront stands in front (the local host): every request is served. */
  loadSecret: OriginSecretLoader | undefined;
  /** Renders a refusal in the route group's own protocol. */
  renderError: (error: GatewayError) => GatewayResponse;
}

/**
 * Refuses requests without the origin secret before the route group sees them, and removes the header
 * from those it lets through. The secret is loaded as soon as the guard is created (at cold start) and
 * kept; a failed load is retried by the next request and answered with 503 meanwhile.
 */
export function guardOrigin(serve: Serve, { loadSecret, renderError }: OriginGuardOptions): Serve {
  if (loadSecret === undefined) return serve;
  let expected: Promise<string> | undefined;
  const loadOnce = (): Promise<string> => {
    expected ??= loadSecret().catch((error: unknown) => {
      expected = undefined;
      throw error;
    });
    return expected;
  };
  loadOnce().catch(() => {}); // Start at cold start; a failure surfaces on the first request.

  return async function serveFromOrigin(request) {
    let secret: string;
    try {
      secret = await loadOnce();
    } catch (error) {
      return renderError(configUnavailable(error));
    }
    if (!verifyOriginSecret(request.headers, secret)) return renderError(originNotAllowed());
    const { [ORIGIN_SECRET_HEADER]: _secret, ...headers } = request.headers;
    return serve({ ...request, headers });
  };
}

function sha256(value: string): Buffer {
  return createHash('sha256').update(value, 'utf8').digest();
}
