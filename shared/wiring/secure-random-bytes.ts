import { randomFillSync } from 'node:crypto';
import type { RandomBytes } from '../core/ports.ts';

/** Bytes taken from the operating system's CSPRNG at a time: about 80 record and generation ids. */
const POOL_BYTES = 4096;

let pool = new Uint8Array(0);
let taken = 0;

/**
 * Cryptographically secure random bytes, served from a pool filled a few KiB at a time, as Node's own
 * `randomUUID` does: each `crypto.randomBytes` call is a trip into the C++ side costing ~10–20 µs, and a
 * request asks twice (its generation id and its usage record id). Every byte is handed out once; a slice
 * stays valid after the pool is replaced, since a new pool is a new buffer.
 */
export const secureRandomBytes: RandomBytes = (size) => {
  if (size > POOL_BYTES) return randomFillSync(new Uint8Array(size));
  if (taken + size > pool.length) {
    pool = randomFillSync(new Uint8Array(POOL_BYTES));
    taken = 0;
  }
  taken += size;
  return pool.subarray(taken - size, taken);
};
