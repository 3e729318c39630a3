import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { formatScaledInteger, microsPer1kToUsdPerToken } from '../../shared/core/usd-decimal.ts';

describe('formatScaledInteger', () => {
  it.each([
    [150n, 9, '0.00000015'],
    [0n, 9, '0'],
    [1n, 9, '0.000000001'],
    [1_000_000_000n, 9, '1'],
    [1_500_000_000n, 9, '1.5'],
    [123_456_789_012n, 9, '123.456789012'],
    [-150n, 9, '-0.00000015'],
    [-2_000_000_000n, 9, '-2'],
    [42n, 0, '42'],
    [0n, 0, '0'],
    [1050n, 2, '10.5'],
  ])('renders (%s, %i) as "%s"', (units, scale, expected) => {
    expect(formatScaledInteger(units, scale)).toBe(expected);
  });

  it('never prints exponent notation, leading zeros or trailing fraction zeros, and parses back exactly', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: -(10n ** 30n), max: 10n ** 30n }), fc.integer({ min: 0, max: 18 }), (units, scale) => {
        const text = formatScaledInteger(units, scale);
        expect(text).toMatch(/^-?(0|[1-9]\d*)(\.\d*[1-9])?$/);
        const [whole = '', fraction = ''] = text.replace('-', '').split('.');
        const magnitude = BigInt(whole + fraction.padEnd(scale, '0'));
        expect(text.startsWith('-') ? -magnitude : magnitude).toBe(units);
      }),
    );
  });
});

describe('microsPer1kToUsdPerToken', () => {
  it('shifts micro-USD per 1,000 tokens by nine places to USD per token', () => {
    expect(microsPer1kToUsdPerToken(150)).toBe('0.00000015');
    expect(microsPer1kToUsdPerToken(600)).toBe('0.0000006');
    expect(microsPer1kToUsdPerToken(75_000)).toBe('0.000075');
    expect(microsPer1kToUsdPerToken(0)).toBe('0');
  });

  it('stays exact where floating point would not: 0.1 + 0.2 style prices', () => {
    expect(microsPer1kToUsdPerToken(300)).toBe('0.0000003');
    expect(String(300 / 1e9)).toBe('3e-7');
  });
});
