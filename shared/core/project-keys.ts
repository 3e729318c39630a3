import { hash } from 'node:crypto';
import type { RandomBytes } from './ports.ts';

export const PROJECT_KEY_PREFIX = 'gw.';
const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
/** 43 base62 characters carry 43·log2(62) ≈ 256.0 bits. */
const KEY_BODY_LENGTH = 43;

/**
 * Draws `length` base62 characters from a CSPRNG without modulo bias: bytes ≥ 248 (= 4·62) are
 * rejected, so every character is uniform.
 */
export function randomBase62(length: number, randomBytes: RandomBytes): string {
  let result = '';
  while (result.length < length) {
    for (const byte of randomBytes(length * 2)) {
      if (byte < 248) result += BASE62[byte % 62];
      if (result.length === length) break;
    }
  }
  return result;
}

export function generateProjectKey(randomBytes: RandomBytes): string {
  return PROJECT_KEY_PREFIX + randomBase62(KEY_BODY_LENGTH, randomBytes);
}

export function generateKeyId(randomBytes: RandomBytes): string {
  return 'key_' + randomBase62(16, randomBytes);
}

export function hashProjectKey(key: string): string {
  return hash('sha256', key, 'hex');
}

/** What may be shown of a key after creation: enough to recognise it, far too little to use it. */
export function projectKeyHint(key: string): string {
  return `${key.slice(0, PROJECT_KEY_PREFIX.length + 4)}…${key.slice(-4)}`;
}

/** A well-formed key: the prefix and the base62 body. Anything else is rejected before any store read. */
export function isWellFormedProjectKey(candidate: string): boolean {
  return /^gw\.[0-9A-Za-z]{43}$/.test(candidate);
}
