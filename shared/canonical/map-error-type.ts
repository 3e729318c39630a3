import type { CanonicalErrorType } from './canonical-events.ts';

const fromAnthropic: Record<string, CanonicalErrorType> = {
  invalid_request_error: 'invalid-request',
  authentication_error: 'authentication',
  permission_error: 'permission',
  not_found_error: 'not-found',
  request_too_large: 'request-too-large',
  rate_limit_error: 'rate-limit',
  billing_error: 'billing',
  overloaded_error: 'overloaded',
  timeout_error: 'timeout',
  api_error: 'server',
};

/** Anthropic's `error.type` in canonical words; unknown types are server errors. */
export function mapAnthropicErrorType(type: string | null | undefined): CanonicalErrorType {
  return (type && fromAnthropic[type]) || 'server';
}

const toAnthropic: Record<CanonicalErrorType, string> = {
  'invalid-request': 'invalid_request_error',
  authentication: 'authentication_error',
  permission: 'permission_error',
  'not-found': 'not_found_error',
  'request-too-large': 'request_too_large',
  'rate-limit': 'rate_limit_error',
  billing: 'billing_error',
  overloaded: 'overloaded_error',
  timeout: 'timeout_error',
  server: 'api_error',
};

/** A canonical error type as Anthropic's `error.type` (Claude Code recovers by matching these words). */
export function toAnthropicErrorType(type: CanonicalErrorType): string {
  return toAnthropic[type];
}

const fromChat: Record<string, CanonicalErrorType> = {
  invalid_request_error: 'invalid-request',
  authentication_error: 'authentication',
  invalid_api_key: 'authentication',
  permission_error: 'permission',
  not_found_error: 'not-found',
  model_not_found: 'not-found',
  rate_limit_error: 'rate-limit',
  rate_limit_exceeded: 'rate-limit',
  requests: 'rate-limit',
  tokens: 'rate-limit',
  insufficient_quota: 'billing',
  overloaded_error: 'overloaded',
  server_overloaded: 'overloaded',
  timeout: 'timeout',
};

/**
 * An OpenAI-compatible error's `type` (or, failing that, its `code`) in canonical words. OpenAI puts the
 * telling word in either field depending on the error, so both are tried; the rest are server errors.
 */
export function mapChatErrorType(type: string | null | undefined, code?: string | null): CanonicalErrorType {
  return (type && fromChat[type]) || (code && fromChat[code]) || 'server';
}

const toChat: Record<CanonicalErrorType, string> = {
  'invalid-request': 'invalid_request_error',
  authentication: 'authentication_error',
  permission: 'permission_error',
  'not-found': 'not_found_error',
  'request-too-large': 'invalid_request_error',
  'rate-limit': 'rate_limit_error',
  billing: 'insufficient_quota',
  overloaded: 'server_error',
  timeout: 'server_error',
  server: 'server_error',
};

/** A canonical error type as OpenAI's `error.type`. */
export function toChatErrorType(type: CanonicalErrorType): string {
  return toChat[type];
}
