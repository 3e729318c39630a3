/**
 * Exact decimal rendering of integer amounts, so prices never pass through floating point and never
 * print in exponent notation.
 */

/** Renders `units · 10^-scale` as a plain decimal string: (150n, 9) → "0.00000015". */
export function formatScaledInteger(units: bigint, scale: number): string {
  const negative = units < 0n;
  const digits = (negative ? -units : units).toString().padStart(scale + 1, '0');
  const whole = digits.slice(0, digits.length - scale);
  const fraction = digits.slice(digits.length - scale).replace(/0+$/, '');
  return `${negative ? '-' : ''}${whole}${fraction ? `.${fraction}` : ''}`;
}

/** Micro-USD per 1,000 tokens → USD per token (÷10^6 for USD, ÷10^3 per token): a shift by 9 places. */
export function microsPer1kToUsdPerToken(micros: number): string {
  return formatScaledInteger(BigInt(micros), 9);
}
