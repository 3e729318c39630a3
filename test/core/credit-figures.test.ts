import { describe, expect, it } from 'vitest';
import { creditFigures } from '../../shared/core/credit-figures.ts';

describe('creditFigures', () => {
  it('counts what requests in flight hold as credit still held, so the total stays put while they run', () => {
    // 10,000 given, 1,250 spent, 2,000 held by a request in flight: 6,750 available to the next one.
    const figures = creditFigures({ spentNanos: 1_250n, requestCount: 1, availableNanos: 6_750n, reservedNanos: 2_000n }, true);
    expect(figures).toEqual({ usageNanos: 1_250n, totalCreditsNanos: 10_000n, availableNanos: 6_750n });
  });

  it('keeps a balance a request outran below zero, as admission sees it', () => {
    const figures = creditFigures({ spentNanos: 1_100n, requestCount: 1, availableNanos: -100n, reservedNanos: 0n }, true);
    expect(figures).toEqual({ usageNanos: 1_100n, totalCreditsNanos: 1_000n, availableNanos: -100n });
  });

  it('reads a prepaid project whose usage item holds no balance yet as having none available', () => {
    expect(creditFigures({ spentNanos: 0n, requestCount: 0 }, true)).toEqual({ usageNanos: 0n, totalCreditsNanos: 0n, availableNanos: 0n });
  });

  it('gives a postpaid project its usage as its credits and nothing available, whatever balance was left from prepaid days', () => {
    const figures = creditFigures({ spentNanos: 900n, requestCount: 3, availableNanos: 5_000n }, false);
    expect(figures).toEqual({ usageNanos: 900n, totalCreditsNanos: 900n });
  });
});
