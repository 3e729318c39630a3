import type { ProjectUsageTotals } from './ports.ts';

/**
 * A project's money as OpenRouter's key and credit checks show it, in nano-USD, from what the gateway
 * stores: the metered spend, and for a prepaid project what its balance has left and what requests in
 * flight hold of it. Nothing here is estimated.
 */
export interface CreditFigures {
  /** Every cost the writer has metered for the project, ever. */
  usageNanos: bigint;
  /**
   * Prepaid: what the project was given, as spent + left + held (a balance set with `--balance-usd` is what
   * is left at that moment, so the spend before it counts as credit used). Postpaid: the usage, as nothing
   * was paid in advance and everything used is billed afterwards.
   */
  totalCreditsNanos: bigint;
  /** Prepaid only: what a new request's reservation is taken from, net of the requests in flight (may dip below 0). */
  availableNanos?: bigint;
}

export function creditFigures(totals: ProjectUsageTotals, prepaid: boolean): CreditFigures {
  if (!prepaid) return { usageNanos: totals.spentNanos, totalCreditsNanos: totals.spentNanos };
  const available = totals.availableNanos ?? 0n;
  return {
    usageNanos: totals.spentNanos,
    totalCreditsNanos: totals.spentNanos + available + (totals.reservedNanos ?? 0n),
    availableNanos: available,
  };
}
