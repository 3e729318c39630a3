import { hash, timingSafeEqual } from 'node:crypto';
import { configUnavailable, GatewayError } from '../core/errors.ts';
import type { GatewayRequest, GatewayResponse } from '../http/gateway-http.ts';

/**
 * The header CloudFront adds to every origin request (docs/decisions/origin-secret.md). Function URLs use
 * auth type NONE, so this header is what tells a request that came through the distribution from one sent
 * straight to the function URL.
 */
export const ORIGIN_SECRET_HEADER = 'x-gateway-origin-secret';

/**
 * The secret's values during a rotation: the current one, and the one it replaced, which CloudFront keeps
 * sending until the next deployment reaches every edge.
 */
export interface OriginSecrets {
  current: string;
  previous?: string;
  /** When the current value was stored (ms since the epoch): the previous one is accepted for a grace period after. */
  currentSince: number;
}

/** Reads the secret's current and previous values (Secrets Manager in AWS). */
export type OriginSecretLoader = () => Promise<OriginSecrets>;

type Serve = (request: GatewayRequest) => Promise<GatewayResponse>;

/** How long a read of the secret is trusted, how long the previous value stays valid, how often a mismatch may re-read. */
export const ORIGIN_SECRET_TIMING = { cacheTtlMs: 5 * 60_000, graceMs: 24 * 3_600_000, rereadAfterMismatchMs: 30_000 };

/**
 * True when the request carries the expected origin secret. Compared in constant time over SHA-256
 * digests, so neither the content nor the length of the secret leaks through timing.
 */
export function verifyOriginSecret(headers: GatewayRequest['headers'], expected: string): boolean {
  const presented = headers[ORIGIN_SECRET_HEADER];
  if (expected === '' || presented === undefined || presented === '') return false;
  return timingSafeEqual(sha256(presented), sha256(expected));
}

/** The current value, or the previous one within its grace period. */
export function acceptsOriginSecret(headers: GatewayRequest['headers'], secrets: OriginSecrets, now: number, graceMs: number): boolean {
  const current = verifyOriginSecret(headers, secrets.current);
  const previous = secrets.previous !== undefined && now - secrets.currentSince < graceMs && verifyOriginSecret(headers, secrets.previous);
  return current || previous;
}

export function originNotAllowed(): GatewayError {
  return new GatewayError('permission', 'Requests must be sent to the gateway URL, not to the function directly.', {
    code: 'origin_not_allowed',
  });
}

export interface OriginGuardOptions {
  /** Undefined where no CloudFront stands in front (the local host): every request is served. */
  loadSecrets: OriginSecretLoader | undefined;
  /** Renders a refusal in the route group's own protocol. */
  renderError: (error: GatewayError) => GatewayResponse;
  now?: () => number;
  timing?: typeof ORIGIN_SECRET_TIMING;
}

/**
 * Refuses requests without the origin secret before the route group sees them, and removes the header
 * from those it lets through. The secret is read at creation (cold start), then again once its read is
 * older than the cache TTL, or when a request presents another value and the last read is older than
 * `rereadAfterMismatchMs` (a rotation this environment has not seen yet). While no read has succeeded,
 * requests get 503 and the next one retries; a failed re-read keeps the values read before.
 */
export function guardOrigin(serve: Serve, { loadSecrets, renderError, now = Date.now, timing = ORIGIN_SECRET_TIMING }: OriginGuardOptions): Serve {
  if (loadSecrets === undefined) return serve;
  let cached: { secrets: OriginSecrets; readAt: number } | undefined;
  let reading: Promise<OriginSecrets> | undefined;
  const read = (): Promise<OriginSecrets> => {
    reading ??= loadSecrets()
      .then((secrets) => {
        cached = { secrets, readAt: now() };
        return secrets;
      })
      .finally(() => {
        reading = undefined;
      });
    return reading;
  };
  const fresh = async (maxAgeMs: number): Promise<OriginSecrets> => {
    if (cached && now() - cached.readAt < maxAgeMs) return cached.secrets;
    try {
      return await read();
    } catch (error) {
      if (cached) return cached.secrets;
      throw error;
    }
  };
  read().catch(() => {}); // Start at cold start; a failure surfaces on the first request.

  return async function serveFromOrigin(request) {
    let accepted: boolean;
    try {
      const accepts = (secrets: OriginSecrets) => acceptsOriginSecret(request.headers, secrets, now(), timing.graceMs);
      accepted = accepts(await fresh(timing.cacheTtlMs)) || accepts(await fresh(timing.rereadAfterMismatchMs));
    } catch (error) {
      return renderError(configUnavailable(error));
    }
    if (!accepted) return renderError(originNotAllowed());
    const { [ORIGIN_SECRET_HEADER]: _secret, ...headers } = request.headers;
    return serve({ ...request, headers });
  };
}

function sha256(value: string): Buffer {
  return hash('sha256', value, 'buffer');
}
