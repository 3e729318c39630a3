import type { TokenUsage } from '../core/token-usage.ts';

/**
 * The usage of a request the upstream accepted (answered 2xx): it is billed the request itself once, at
 * the rate card's per-request price, whatever else it used. Idempotent, so that every path that prices or
 * records a served answer can apply it.
 */
export function withAcceptedRequest(usage: TokenUsage): TokenUsage {
  return { ...usage, units: { ...usage.units, requests: 1 } };
}
