import { describe, expect, it } from 'vitest';
import { configUnavailable, GatewayError, toGatewayError, type GatewayErrorKind } from '../../shared/core/errors.ts';

const expectedStatus: ReadonlyArray<[GatewayErrorKind, number]> = [
  ['invalid_request', 400],
  ['authentication', 401],
  ['payment_required', 402],
  ['permission', 403],
  ['not_found', 404],
  ['method_not_allowed', 405],
  ['request_too_large', 413],
  ['rate_limited', 429],
  ['upstream', 502],
  ['config_unavailable', 503],
  ['internal', 500],
];

describe('GatewayError', () => {
  it.each(expectedStatus)('gives kind %s the HTTP status %i', (kind, status) => {
    expect(new GatewayError(kind, 'message', { code: 'some_code' }).status).toBe(status);
  });

  it('lets an explicit status override the status of its kind', () => {
    const error = new GatewayError('upstream', 'slow down', { code: 'upstream_rate_limited', status: 429 });
    expect(error.status).toBe(429);
    expect(error.kind).toBe('upstream');
  });

  it('carries code, param, headers and cause as given', () => {
    const cause = new Error('root');
    const error = new GatewayError('invalid_request', 'bad model', {
      code: 'missing_model',
      param: 'model',
      headers: { 'retry-after': '3' },
      cause,
    });
    expect(error).toBeInstanceOf(Error);
    expect(error.name).toBe('GatewayError');
    expect(error.message).toBe('bad model');
    expect(error.code).toBe('missing_model');
    expect(error.param).toBe('model');
    expect(error.headers).toEqual({ 'retry-after': '3' });
    expect(error.cause).toBe(cause);
  });

  it('defaults param to undefined and headers to an empty object', () => {
    const error = new GatewayError('not_found', 'nothing here', { code: 'not_found' });
    expect(error.param).toBeUndefined();
    expect(error.headers).toEqual({});
  });

  it('shows the message of every kind except internal', () => {
    for (const [kind] of expectedStatus) {
      const error = new GatewayError(kind, 'secret detail at /var/task/index.js', { code: 'c' });
      const expected = kind === 'internal' ? 'The gateway failed to handle the request.' : 'secret detail at /var/task/index.js';
      expect(error.publicMessage).toBe(expected);
    }
  });
});

describe('toGatewayError', () => {
  it('returns a GatewayError unchanged', () => {
    const original = new GatewayError('permission', 'no', { code: 'model_not_allowed' });
    expect(toGatewayError(original)).toBe(original);
  });

  it('turns any other thrown value into an opaque 500 internal_error keeping it as cause', () => {
    const thrown = new TypeError('Cannot read properties of undefined (reading "x")');
    const error = toGatewayError(thrown);
    expect(error.status).toBe(500);
    expect(error.kind).toBe('internal');
    expect(error.code).toBe('internal_error');
    expect(error.cause).toBe(thrown);
    expect(error.publicMessage).toBe('The gateway failed to handle the request.');
    expect(error.publicMessage).not.toContain('Cannot read');
  });

  it('wraps thrown non-errors too', () => {
    expect(toGatewayError('a string').code).toBe('internal_error');
    expect(toGatewayError(undefined).status).toBe(500);
  });
});

describe('configUnavailable', () => {
  it('refuses with 503 config_unavailable, asks for a retry after one second and keeps the cause', () => {
    const cause = new Error('ResourceNotFoundException');
    const error = configUnavailable(cause);
    expect(error.status).toBe(503);
    expect(error.code).toBe('config_unavailable');
    expect(error.headers).toEqual({ 'retry-after': '1' });
    expect(error.cause).toBe(cause);
    expect(error.publicMessage).toBe('The gateway configuration store is temporarily unavailable. Retry shortly.');
  });
});
