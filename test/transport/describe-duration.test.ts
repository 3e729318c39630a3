import { describe, expect, it } from 'vitest';
import { describeDuration } from '../../shared/transport/answer-time-limits.ts';

describe('describeDuration', () => {
  it.each([
    [250, '250 ms'],
    [1000, '1 s'],
    [1500, '1.5 s'],
    [2750, '2.75 s'],
    [300_000, '300 s'],
  ])('tells a %d ms time limit exactly, as %s', (milliseconds, words) => {
    expect(describeDuration(milliseconds)).toBe(words);
  });
});
