import { GatewayError } from '../core/errors.ts';
import type { UpstreamFetch } from '../core/ports.ts';
import { describeDuration } from './answer-time-limits.ts';

export interface UpstreamCall {
  fetch: UpstreamFetch;
  provider: string;
  url: string;
  /** POST unless given (reading or deleting a stored answer is a GET or a DELETE, without a body). */
  method?: string;
  headers: Record<string, string>;
  /** Text or bytes (an upload); none for a GET. */
  body?: string | Uint8Array;
  /** How long to wait for the response head; reasoning models may think for minutes before it. */
  firstByteTimeoutMs: number;
  /**
   * Aborts the exchange, body included: the first-byte time-out does, and the caller may later (a body
   * still coming at the request's deadline). A new one per call unless given.
   */
  exchange?: AbortController;
}

/**
 * Sends one request upstream. Resolves with the upstream's response whatever its status; a connection
 * failure or time-out becomes a 502 that names the provider (never its URL's credentials or key).
 */
export async function callUpstream(call: UpstreamCall): Promise<Response> {
  const abort = call.exchange ?? new AbortController();
  const timer = setTimeout(() => abort.abort(new UpstreamTimeout()), call.firstByteTimeoutMs);
  try {
    return await call.fetch(call.url, {
      method: call.method ?? 'POST',
      headers: call.headers,
      // A Buffer's backing store may be shared (ArrayBufferLike), which fetch's types do not admit; fetch sends it all the same.
      ...(call.body !== undefined ? { body: call.body as BodyInit } : {}),
      signal: abort.signal,
    });
  } catch (error) {
    if (abort.signal.reason instanceof UpstreamTimeout) {
      throw new GatewayError(
        'upstream',
        `Provider "${call.provider}" did not answer within ${describeDuration(call.firstByteTimeoutMs)}.`,
        { code: 'upstream_timeout', cause: error },
      );
    }
    throw new GatewayError('upstream', `Could not reach provider "${call.provider}": ${describeNetworkError(error)}.`, {
      code: 'upstream_unreachable',
      cause: error,
    });
  } finally {
    clearTimeout(timer);
  }
}

class UpstreamTimeout extends Error {
  override readonly name = 'UpstreamTimeout';
}

/** fetch reports "fetch failed" and hides the reason in `cause.code` (ECONNREFUSED, ENOTFOUND, …). */
function describeNetworkError(error: unknown): string {
  // Node's HTTP client puts the code on the error itself.
  if (error instanceof Error && 'code' in error && typeof error.code === 'string') return error.code;
  const cause = error instanceof Error ? error.cause : undefined;
  if (cause && typeof cause === 'object' && 'code' in cause && typeof cause.code === 'string') return cause.code;
  return error instanceof Error ? error.message : 'network error';
}
