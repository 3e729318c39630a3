import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { GatewayError } from '../../shared/core/errors.ts';
import type { RandomBytes } from '../../shared/core/ports.ts';
import { chooseRequestId } from '../../shared/core/request-id.ts';

const sevens: RandomBytes = (size) => new Uint8Array(size).fill(7);
const neverCalled: RandomBytes = () => {
  throw new Error('randomBytes must not be called for a client id');
};

describe('chooseRequestId', () => {
  it('makes a fresh "gen-" id of 24 base62 characters when the client sent none', () => {
    expect(chooseRequestId(undefined, sevens)).toBe(`gen-${'7'.repeat(24)}`);
  });

  it('treats an empty X-Request-ID as absent', () => {
    expect(chooseRequestId('', sevens)).toBe(`gen-${'7'.repeat(24)}`);
  });

  it('keeps a well-formed client id as it is', () => {
    expect(chooseRequestId('trace:2025-01-01_run.42', neverCalled)).toBe('trace:2025-01-01_run.42');
  });

  it('accepts a client id of exactly 128 characters', () => {
    const id = 'a'.repeat(128);
    expect(chooseRequestId(id, neverCalled)).toBe(id);
  });

  it.each([
    ['129 characters', 'a'.repeat(129)],
    ['a space', 'abc def'],
    ['a newline (header injection)', 'abc\r\nx-injected: 1'],
    ['a slash', 'a/b'],
    ['a non-ASCII letter', 'caf\u00e9'],
  ])('refuses a client id with %s with 400 invalid_request_id', (_what, id) => {
    let caught: unknown;
    try {
      chooseRequestId(id, neverCalled);
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(GatewayError);
    const error = caught as GatewayError;
    expect(error.status).toBe(400);
    expect(error.code).toBe('invalid_request_id');
  });

  it('returns either the client id unchanged or throws, never some other id', () => {
    fc.assert(
      fc.property(fc.string({ minLength: 1, maxLength: 140 }), (id) => {
        const valid = /^[A-Za-z0-9._:-]{1,128}$/.test(id);
        if (valid) expect(chooseRequestId(id, neverCalled)).toBe(id);
        else expect(() => chooseRequestId(id, neverCalled)).toThrow(GatewayError);
      }),
    );
  });
});
