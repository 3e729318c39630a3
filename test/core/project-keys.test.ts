import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  generateKeyId,
  generateProjectKey,
  hashProjectKey,
  isWellFormedProjectKey,
  projectKeyHint,
  randomBase62,
} from '../../shared/core/project-keys.ts';
import type { RandomBytes } from '../../shared/core/ports.ts';

/** Hands out the given bytes in order, then repeats the last batch's pattern from the start. */
function scriptedBytes(bytes: readonly number[]): RandomBytes {
  let position = 0;
  return (size) => {
    const out = new Uint8Array(size);
    for (let i = 0; i < size; i++) out[i] = bytes[position++ % bytes.length] ?? 0;
    return out;
  };
}

const base62 = /^[0-9A-Za-z]*$/;

describe('randomBase62', () => {
  it('maps bytes below 248 to base62 characters by their value modulo 62', () => {
    // 0 → "0", 10 → "A", 36 → "a", 61 → "z", 62 → "0", 247 (= 3·62 + 61) → "z"
    expect(randomBase62(6, scriptedBytes([0, 10, 36, 61, 62, 247]))).toBe('0Aaz0z');
  });

  it('rejects bytes of 248 and above instead of folding them onto early characters', () => {
    expect(randomBase62(3, scriptedBytes([248, 255, 1, 250, 2, 3]))).toBe('123');
  });

  it('asks for more bytes when a batch is mostly rejected', () => {
    const calls: number[] = [];
    let call = 0;
    const source: RandomBytes = (size) => {
      calls.push(size);
      call++;
      return new Uint8Array(size).fill(call === 1 ? 255 : 5);
    };
    expect(randomBase62(4, source)).toBe('5555');
    expect(calls).toEqual([8, 8]);
  });

  it('always yields exactly the requested number of base62 characters', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 80 }), fc.array(fc.integer({ min: 0, max: 255 }), { minLength: 1, maxLength: 64 }), (length, bytes) => {
        // At least one accepted byte so the draw terminates.
        const source = scriptedBytes([...bytes, 7]);
        const result = randomBase62(length, source);
        expect(result).toHaveLength(length);
        expect(result).toMatch(base62);
      }),
    );
  });
});

describe('generateProjectKey', () => {
  it('produces "gw." and 43 base62 characters, which isWellFormedProjectKey accepts', () => {
    fc.assert(
      fc.property(fc.uint8Array({ minLength: 1, maxLength: 200 }), (bytes) => {
        const key = generateProjectKey(scriptedBytes([...bytes, 1]));
        expect(key.startsWith('gw.')).toBe(true);
        expect(key).toHaveLength(46);
        expect(isWellFormedProjectKey(key)).toBe(true);
      }),
    );
  });
});

describe('generateKeyId', () => {
  it('produces "key_" and 16 base62 characters', () => {
    expect(generateKeyId(scriptedBytes([1, 2, 3, 4]))).toBe('key_1234123412341234');
  });
});

describe('hashProjectKey', () => {
  it('is the hex SHA-256 of the key', () => {
    expect(hashProjectKey('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
  });

  it('gives different keys different hashes of 64 hex digits', () => {
    const a = hashProjectKey(`gw.${'a'.repeat(43)}`);
    const b = hashProjectKey(`gw.${'b'.repeat(43)}`);
    expect(a).toMatch(/^[0-9a-f]{64}$/);
    expect(a).not.toBe(b);
  });
});

describe('projectKeyHint', () => {
  it('shows the prefix, four characters and the last four, nothing more', () => {
    const key = `gw.ABCD${'x'.repeat(35)}WXYZ`;
    expect(projectKeyHint(key)).toBe('gw.ABCD…WXYZ');
  });

  it('never reveals more than 11 characters of a generated key', () => {
    fc.assert(
      fc.property(fc.uint8Array({ minLength: 1, maxLength: 100 }), (bytes) => {
        const key = generateProjectKey(scriptedBytes([...bytes, 9]));
        const hint = projectKeyHint(key);
        expect(hint.replace('…', '')).toHaveLength(11);
        expect(hint.startsWith(key.slice(0, 7))).toBe(true);
        expect(hint.endsWith(key.slice(-4))).toBe(true);
      }),
    );
  });
});

describe('isWellFormedProjectKey', () => {
  const body = 'A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7r8S9t0U1v';

  it('accepts the prefix with a 43-character base62 body', () => {
    expect(body).toHaveLength(43);
    expect(isWellFormedProjectKey(`gw.${body}`)).toBe(true);
  });

  it.each([
    ['a body one character short', `gw.${body.slice(1)}`],
    ['a body one character long', `gw.${body}x`],
    ['a foreign prefix', `sk.${body}`],
    ['an upper-case prefix', `GW.${body}`],
    ['a non-base62 character', `gw.${body.slice(1)}-`],
    ['trailing whitespace', `gw.${body}\n`],
    ['the empty string', ''],
  ])('refuses %s', (_what, candidate) => {
    expect(isWellFormedProjectKey(candidate)).toBe(false);
  });
});
