import { stringifyWithExactDecimals } from '../http/exact-decimal-json.ts';
import type { GatewayRequest, GatewayResponse } from '../http/gateway-http.ts';
import { admitRequest, readStore } from '../pipeline/admit-request.ts';
import type { GatewayServices } from '../pipeline/gateway-services.ts';
import { describeKeyForClient } from './describe-key.ts';

/**
 * GET /v1/key (and OpenRouter's older `/v1/auth/key`): what OpenRouter clients and users' scripts read to
 * check a key and its remaining credit, in OpenRouter's `data` envelope. Admitted as every read endpoint
 * is; the totals are read fresh (not cached), as they move with every metered request.
 */
export async function handleGetKey(request: GatewayRequest, services: GatewayServices): Promise<GatewayResponse> {
  const { key, config } = await admitRequest(request, services, 'key');
  const totals = await readStore(() => services.balances.loadUsageTotals(config.project.projectId));
  const body = stringifyWithExactDecimals((decimal) => ({ data: describeKeyForClient(key, config.project, totals, decimal) }));
  return { status: 200, headers: { 'content-type': 'application/json' }, body };
}
