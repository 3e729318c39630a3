import { MAX_PRICE_MICROS } from '../../../shared/core/money-limits.ts';
import { formatScaledInteger } from '../../../shared/core/usd-decimal.ts';

/** "2025-03-01 10:04 UTC": dates are shown in UTC, like the usage files' days. */
export function formatTime(iso: string | null | undefined): string {
  if (!iso) return '—';
  const time = new Date(iso);
  if (Number.isNaN(time.getTime())) return iso;
  // No-break spaces: a time never wraps inside a table cell.
  return `${time.toISOString().slice(0, 16).replace('T', '\u00a0')}\u00a0UTC`;
}

/**
 * Nano-USD as the exact USD decimal the API and the CLI show (`spent_usd`, `cost_usd`): $0.00009075, $12.345,
 * $0. Costs are whole nano-USD, given as decimal text or BigInt (sums outgrow 2^53); rounding them here would
 * disagree with the rest of the product.
 */
export function formatUsdNanos(nanos: bigint | string): string {
  return `$${formatScaledInteger(BigInt(nanos), 9)}`;
}

/** Micro-USD per 1,000 tokens as the "USD per million tokens" providers publish (× 1,000 / 1e6). */
export function formatPricePerMillion(microsPer1k: number | null): string {
  if (microsPer1k === null) return '—';
  return `$${(microsPer1k / 1000).toLocaleString('en-US', { maximumFractionDigits: 3 })}`;
}

/** The dearest price the model form takes, in USD per million tokens: the rate card's bound (100,000). */
export const MAX_PRICE_PER_MILLION = MAX_PRICE_MICROS / 1000;

/**
 * "0.15" USD per million tokens → 150 micro-USD per 1,000 tokens, exactly (decimal text, no float
 * arithmetic); undefined when the text is not a price with at most 3 decimals, or is dearer than the
 * rate card takes (MAX_PRICE_MICROS).
 */
export function parsePricePerMillion(text: string): number | undefined {
  const match = /^\s*(\d{1,9})(?:\.(\d{1,3}))?\s*$/.exec(text);
  if (!match) return undefined;
  const micros = Number(match[1]) * 1000 + Number((match[2] ?? '').padEnd(3, '0'));
  return micros <= MAX_PRICE_MICROS ? micros : undefined;
}

/** A count with thousands separators; token sums come as decimal text, exact beyond 2^53. */
export function formatCount(value: number | bigint | string): string {
  return (typeof value === 'string' ? BigInt(value) : value).toLocaleString('en-US');
}

/** The exact sum of integers given as decimal text (tokens, nano-USD). */
export function sumExact(values: readonly string[]): bigint {
  return values.reduce((sum, value) => sum + BigInt(value), 0n);
}

/** A UTC day, YYYY-MM-DD, `daysAgo` days before today. */
export function utcDay(daysAgo = 0, now = Date.now()): string {
  return new Date(now - daysAgo * 86_400_000).toISOString().slice(0, 10);
}
