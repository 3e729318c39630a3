import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PROJECT_ROOT } from '../../infra/bundling/handler-code.ts';
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

/**
 * Every error code the gateway's request paths give in a `code:` field (`code: 'json_too_deep'`, or each
 * code of an expression: `code: isTokens ? 'tokens_rate_limited' : 'requests_rate_limited'`). The admin
 * commands (with the URL checks of provider set and mcp add) and the console API answer their own callers,
 * not clients of the gateway: left out.
 */
function gatewayErrorCodes(): Map<string, string> {
  const codes = new Map<string, string>();
  for (const directory of ['shared', 'functions', 'tools/local-host']) {
    const files = readdirSync(join(PROJECT_ROOT, directory), { recursive: true, encoding: 'utf8' }).filter((name) => name.endsWith('.ts'));
    for (const file of files.map((name) => `${directory}/${name}`)) {
      if (/^shared\/(admin|console)\/|^functions\/(admin|console)\/|console|validate-base-url/.test(file)) continue;
      for (const [, expression = ''] of readFileSync(join(PROJECT_ROOT, file), 'utf8').matchAll(/\bcode: ([^,}\n]+)/g)) {
        for (const [, code = ''] of expression.matchAll(/'([a-z]+(?:_[a-z0-9]+)+)'/g)) codes.set(code, file);
      }
    }
  }
  return codes;
}

describe('docs/decisions/errors.md', () => {
  it("lists in its table every code the gateway's errors carry", () => {
    const table = readFileSync(join(PROJECT_ROOT, 'docs/decisions/errors.md'), 'utf8')
      .split('\n')
      .filter((line) => line.startsWith('| '))
      .join('\n');
    const codes = gatewayErrorCodes();
    expect(codes.size).toBeGreaterThan(50);
    const missing = [...codes].filter(([code]) => !table.includes(`\`${code}\``)).map(([code, file]) => `${code} (${file})`);
    expect(missing).toEqual([]);
  });
});
