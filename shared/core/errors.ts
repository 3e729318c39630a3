/**
 * The one error hierarchy of the gateway. Each route group renders a GatewayError in its own protocol's
 * error body; the status and the decision whether the message may be shown live here, in one place.
 */
export type GatewayErrorKind =
  | 'invalid_request'
  | 'authentication'
  | 'payment_required'
  | 'permission'
  | 'not_found'
  | 'method_not_allowed'
  | 'request_too_large'
  | 'rate_limited'
  | 'upstream'
  | 'config_unavailable'
  | 'internal';

const statusByKind: Record<GatewayErrorKind, number> = {
  invalid_request: 400,
  authentication: 401,
  payment_required: 402,
  permission: 403,
  not_found: 404,
  method_not_allowed: 405,
  request_too_large: 413,
  rate_limited: 429,
  upstream: 502,
  config_unavailable: 503,
  internal: 500,
};

export interface GatewayErrorOptions {
  /** Machine-readable code clients can branch on, e.g. `model_not_allowed`. */
  code: string;
  /** The request field the error is about, when there is one. */
  param?: string;
  /** Overrides the kind's status (an upstream 429 stays 429 but is still an upstream error). */
  status?: number;
  /** Extra response headers, e.g. `retry-after`. */
  headers?: Record<string, string>;
  cause?: unknown;
}

export class GatewayError extends Error {
  override readonly name = 'GatewayError';
  readonly kind: GatewayErrorKind;
  readonly status: number;
  readonly code: string;
  readonly param: string | undefined;
  readonly headers: Record<string, string>;

  constructor(kind: GatewayErrorKind, message: string, options: GatewayErrorOptions) {
    super(message, { cause: options.cause });
    this.kind = kind;
    this.status = options.status ?? statusByKind[kind];
    this.code = options.code;
    this.param = options.param;
    this.headers = options.headers ?? {};
  }

  /** Internal errors never expose their message: it may carry details of the machine or a dependency. */
  get publicMessage(): string {
    return this.kind === 'internal' ? 'The gateway failed to handle the request.' : this.message;
  }
}

/** The same error with more response headers (a metered failure's `x-generation-id`). */
export function withErrorHeaders(error: GatewayError, headers: Record<string, string>): GatewayError {
  return new GatewayError(error.kind, error.message, { code: error.code, param: error.param, status: error.status, headers: { ...error.headers, ...headers }, cause: error.cause });
}

/** Anything thrown that is not a GatewayError becomes an opaque 500, keeping the original as `cause`. */
export function toGatewayError(error: unknown): GatewayError {
  if (error instanceof GatewayError) return error;
  return new GatewayError('internal', 'Unexpected error', { code: 'internal_error', cause: error });
}

/** A configuration store failure: the request cannot be decided, so it is refused with 503 and may be retried. */
export function configUnavailable(cause: unknown): GatewayError {
  return new GatewayError(
    'config_unavailable',
    'The gateway configuration store is temporarily unavailable. Retry shortly.',
    { code: 'config_unavailable', headers: { 'retry-after': '1' }, cause },
  );
}
