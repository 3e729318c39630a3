import type { CanonicalErrorType } from './canonical-events.ts';

/**
 * The gateway's error code for an upstream's in-band error of each kind: what a usage record names, and the
 * editor's held failure answers with. A rate limit, a refused credential, a time-out and a server error have
 * the code the same failure has before a stream (errors.md), so that one query by `error_code` finds a
 * provider's rate limit whether it came as a 429 or inside a 200; the kinds a status before a stream does
 * not tell apart (overloaded, not found, too large, no quota) have codes of their own.
 */
export const UPSTREAM_ERROR_CODES: Readonly<Record<CanonicalErrorType, string>> = {
  'invalid-request': 'upstream_rejected_request',
  authentication: 'provider_auth_failed',
  permission: 'provider_auth_failed',
  'not-found': 'upstream_not_found',
  'request-too-large': 'upstream_request_too_large',
  'rate-limit': 'upstream_rate_limited',
  billing: 'upstream_insufficient_quota',
  overloaded: 'upstream_overloaded',
  timeout: 'upstream_timeout',
  server: 'upstream_error',
};
