import { creditFigures } from '../core/credit-figures.ts';
import type { KeyRecord } from '../core/key-record.ts';
import type { ProjectUsageTotals } from '../core/ports.ts';
import { formatUsd } from '../core/price-usage.ts';
import type { Project } from '../core/project-config.ts';

/**
 * The calling key as OpenRouter's `GET /api/v1/key` shows it (docs/decisions/key-and-credits.md). The limit
 * is the project's prepaid balance (keys have none of their own), so `usage` is the project's spend too.
 * Figures the gateway does not keep are null, never guessed; the key itself and its hint are never shown.
 * `exact` renders USD amounts, as in describeGeneration.
 */
export function describeKeyForClient(key: KeyRecord, project: Project, totals: ProjectUsageTotals, exact: (decimal: string) => unknown = Number) {
  const figures = creditFigures(totals, project.prepaid === true);
  const usd = (nanos: bigint | undefined) => (nanos === undefined ? null : exact(formatUsd(nanos)));
  const requestsPerMinute = Math.min(key.rpm ?? Infinity, project.rpm ?? Infinity);
  return {
    label: key.name,
    limit: usd(figures.availableNanos === undefined ? undefined : figures.totalCreditsNanos),
    limit_remaining: usd(figures.availableNanos),
    // A balance is never reset by the calendar: it changes only by spend and by what owners add.
    limit_reset: null,
    usage: usd(figures.usageNanos),
    // The spend is kept as one running total; per-period sums live only in the usage files (`npm run usage`).
    usage_daily: null,
    usage_weekly: null,
    usage_monthly: null,
    is_free_tier: false,
    is_provisioning_key: false,
    is_management_key: false,
    // Gateway keys do not expire; they are revoked.
    expires_at: null,
    ...(Number.isFinite(requestsPerMinute) ? { rate_limit: { requests: requestsPerMinute, interval: '1m' } } : {}),
  };
}
