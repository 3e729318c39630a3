import { GatewayError } from '../core/errors.ts';

const MAX_ERROR_BODY_BYTES = 64 * 1024;
const MAX_MESSAGE_LENGTH = 500;

/** Reads an upstream error body, bounded, and tells its message apart from the rest. */
export async function readUpstreamErrorMessage(response: Response, apiKey: string | undefined): Promise<string> {
  const text = (await response.text().catch(() => '')).slice(0, MAX_ERROR_BODY_BYTES);
  let message = text;
  try {
    const parsed: unknown = JSON.parse(text);
    const candidate = extractMessage(parsed);
    if (candidate) message = candidate;
  } catch {
    // Not JSON: keep the text as it is.
  }
  return redactSecrets(message.trim(), apiKey).slice(0, MAX_MESSAGE_LENGTH) || `HTTP ${response.status}`;
}

function extractMessage(payload: unknown): string | undefined {
  if (typeof payload !== 'object' || payload === null) return undefined;
  const error = 'error' in payload ? payload.error : undefined;
  if (typeof error === 'string') return error;
  if (typeof error === 'object' && error !== null && 'message' in error && typeof error.message === 'string') {
    return error.message;
  }
  if ('message' in payload && typeof payload.message === 'string') return payload.message;
  return undefined;
}

/** Provider keys must never reach a client, not even inside a provider's own error message. */
export function redactSecrets(text: string, apiKey: string | undefined): string {
  let redacted = apiKey ? text.split(apiKey).join('[redacted]') : text;
  redacted = redacted.replace(/\b(sk|xai|gsk|pk)[-_][A-Za-z0-9_*-]{8,}/g, '[redacted]');
  return redacted;
}

/** Upstream statuses that are the gateway's problem (or the provider's), not the client's request. */
export function isGatewaySideUpstreamStatus(status: number): boolean {
  return status === 401 || status === 403 || status === 429 || status >= 500;
}

/**
 * Maps an upstream failure the client cannot fix by changing its request: a rejected credential or an
 * upstream 5xx → 502, an upstream 429 → 429 keeping `Retry-After`. Messages name the provider.
 */
export async function upstreamFailureToGatewayError(
  response: Response,
  provider: string,
  apiKey: string | undefined,
): Promise<GatewayError> {
  const message = await readUpstreamErrorMessage(response, apiKey);
  if (response.status === 401 || response.status === 403) {
    return new GatewayError(
      'upstream',
      `Provider "${provider}" rejected the project's credential (HTTP ${response.status}). An administrator must update it with "provider set".`,
      { code: 'provider_auth_failed' },
    );
  }
  if (response.status === 429) {
    const retryAfter = response.headers.get('retry-after');
    return new GatewayError('rate_limited', `Provider "${provider}" is rate limiting requests: ${message}`, {
      code: 'upstream_rate_limited',
      headers: retryAfter ? { 'retry-after': retryAfter } : {},
    });
  }
  return new GatewayError('upstream', `Provider "${provider}" failed with HTTP ${response.status}: ${message}`, {
    code: 'upstream_error',
  });
}
