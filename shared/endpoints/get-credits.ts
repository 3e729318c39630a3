import { creditFigures } from '../core/credit-figures.ts';
import { formatUsd } from '../core/price-usage.ts';
import { stringifyWithExactDecimals } from '../http/exact-decimal-json.ts';
import type { GatewayRequest, GatewayResponse } from '../http/gateway-http.ts';
import { admitRequest, readStore } from '../pipeline/admit-request.ts';
import type { GatewayServices } from '../pipeline/gateway-services.ts';

/**
 * GET /v1/credits: OpenRouter's `{ data: { total_credits, total_usage } }` for the key's project, in USD as
 * exact decimals. Their difference is what a prepaid balance has left (requests in flight not yet
 * settled); a postpaid project shows its usage as its credits, so nothing is left and nothing overdrawn
 * (docs/decisions/key-and-credits.md).
 */
export async function handleGetCredits(request: GatewayRequest, services: GatewayServices): Promise<GatewayResponse> {
  const { config } = await admitRequest(request, services, 'credits');
  const totals = await readStore(() => services.balances.loadUsageTotals(config.project.projectId));
  const figures = creditFigures(totals, config.project.prepaid === true);
  const body = stringifyWithExactDecimals((decimal) => ({
    data: { total_credits: decimal(formatUsd(figures.totalCreditsNanos)), total_usage: decimal(formatUsd(figures.usageNanos)) },
  }));
  return { status: 200, headers: { 'content-type': 'application/json' }, body };
}
