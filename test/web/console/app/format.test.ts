import { describe, expect, it } from 'vitest';
import { formatCount, formatPricePerMillion, formatTime, formatUsdNanos, parsePricePerMillion, sumExact, utcDay } from '../../../../web/console/app/format.ts';

describe('the console page\'s formats', () => {
  it.each([
    ['0.15', 150],
    ['0.6', 600],
    ['3', 3000],
    ['1.125', 1125],
    [' 15.000 ', 15000],
    ['100000', 100_000_000],
  ])('reads %j USD per million tokens as %i micro-USD per 1,000 tokens, exactly', (text, micros) => {
    expect(parsePricePerMillion(text)).toBe(micros);
  });

  it.each(['', '-1', '0.0001', '1e3', 'free', '1,5', '100000.001', '99999999999'])('refuses the price %j', (text) => {
    expect(parsePricePerMillion(text)).toBeUndefined();
  });

  it('shows prices per million tokens, and costs as the exact USD decimals the API gives', () => {
    expect(formatPricePerMillion(150)).toBe('$0.15');
    expect(formatPricePerMillion(null)).toBe('—');
    expect(formatUsdNanos('0')).toBe('$0');
    expect(formatUsdNanos('90750')).toBe('$0.00009075');
    expect(formatUsdNanos(11_250n)).toBe('$0.00001125');
    expect(formatUsdNanos('12345000001')).toBe('$12.345000001');
    expect(formatUsdNanos(3_000_000_000n)).toBe('$3');
  });

  it('sums and shows costs and token counts beyond 2^53 exactly', () => {
    const total = sumExact(['5000000000000001', '5000000000000002']);
    expect(total).toBe(10_000_000_000_000_003n);
    expect(formatUsdNanos(total)).toBe('$10000000.000000003');
    expect(formatCount('9007199254740993')).toBe('9,007,199,254,740,993');
    expect(formatCount(1234)).toBe('1,234');
  });

  it('shows times in UTC, never wrapped, and days back from today', () => {
    expect(formatTime('2025-03-01T10:04:59.000Z')).toBe('2025-03-01\u00a010:04\u00a0UTC');
    expect(formatTime(null)).toBe('—');
    expect(utcDay(1, Date.parse('2025-03-01T00:30:00Z'))).toBe('2025-02-28');
  });
});
