import { describe, expect, it } from 'vitest';
import { secureRandomBytes } from '../../shared/wiring/secure-random-bytes.ts';

const hex = (bytes: Uint8Array) => Buffer.from(bytes).toString('hex');

describe('secureRandomBytes', () => {
  it('answers exactly the bytes asked for, large requests included', () => {
    for (const size of [0, 1, 48, 4096, 10_000]) expect(secureRandomBytes(size)).toHaveLength(size);
  });

  it('never hands out the same bytes twice, across pool refills', () => {
    const seen = new Set<string>();
    // 500 × 48 bytes spans several 4 KiB pools.
    for (let index = 0; index < 500; index += 1) seen.add(hex(secureRandomBytes(48)));
    expect(seen.size).toBe(500);
  });

  it('keeps bytes already handed out unchanged when the pool is refilled', () => {
    const kept = secureRandomBytes(32);
    const before = hex(kept);
    for (let index = 0; index < 300; index += 1) secureRandomBytes(48);
    expect(hex(kept)).toBe(before);
  });

  it('looks uniformly random: every byte value turns up in 64 KiB', () => {
    const counts = new Array<number>(256).fill(0);
    for (let index = 0; index < 64; index += 1) for (const byte of secureRandomBytes(1024)) counts[byte] = (counts[byte] ?? 0) + 1;
    expect(counts.every((count) => count > 100)).toBe(true);
  });
});
