/** "2025-03-01 10:04 UTC": dates are shown in UTC, like the usage files' days. */
export function formatTime(iso: string | null | undefined): string {
  if (!iso) return '—';
  const time = new Date(iso);
  if (Number.isNaN(time.getTime())) return iso;
  // No-break spaces: a time never wraps inside a table cell.
  return `${time.toISOString().slice(0, 16).replace('T', '\u00a0')}\u00a0UTC`;
}

/** Nano-USD as dollars with enough digits to see small costs: $0.000123, $12.35. */
export function formatUsdNanos(nanos: number): string {
  const usd = nanos / 1e9;
  if (usd === 0) return '$0';
  if (usd >= 1) return `$${usd.toFixed(2)}`;
  return `$${usd.toPrecision(3).replace(/0+$/, '').replace(/\.$/, '')}`;
}

/** Micro-USD per 1,000 tokens as the "USD per million tokens" providers publish (× 1,000 / 1e6). */
export function formatPricePerMillion(microsPer1k: number | null): string {
  if (microsPer1k === null) return '—';
  return `$${(microsPer1k / 1000).toLocaleString('en-US', { maximumFractionDigits: 3 })}`;
}

/**
 * "0.15" USD per million tokens → 150 micro-USD per 1,000 tokens, exactly (decimal text, no float
 * arithmetic); undefined when the text is not a price with at most 3 decimals.
 */
export function parsePricePerMillion(text: string): number | undefined {
  const match = /^\s*(\d{1,9})(?:\.(\d{1,3}))?\s*$/.exec(text);
  if (!match) return undefined;
  return Number(match[1]) * 1000 + Number((match[2] ?? '').padEnd(3, '0'));
}

export function formatCount(value: number): string {
  return value.toLocaleString('en-US');
}

/** A UTC day, YYYY-MM-DD, `daysAgo` days before today. */
export function utcDay(daysAgo = 0, now = Date.now()): string {
  return new Date(now - daysAgo * 86_400_000).toISOString().slice(0, 10);
}
