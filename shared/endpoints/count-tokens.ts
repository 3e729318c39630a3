import { toGatewayError } from '../core/errors.ts';
import { planRoute } from '../core/plan-route.ts';
import { parseProviderPreferences } from '../core/provider-preferences.ts';
import { jsonResponse, type GatewayRequest, type GatewayResponse } from '../http/gateway-http.ts';
import { countMessagesTokensEstimate } from '../protocols/anthropic-messages/count-tokens.ts';
import { buildUpstreamMessagesBody, parseMessagesRequest } from '../protocols/anthropic-messages/messages-request.ts';
import { admitRequest } from '../pipeline/admit-request.ts';
import { AttemptsExhaustedError, coolDownKey, tryTargets } from '../pipeline/failover.ts';
import type { GatewayServices } from '../pipeline/gateway-services.ts';
import { anthropicUpstreamHeaders, relayUpstreamError } from './messages-upstream.ts';

/** Tells the client whether a count came from the model's provider or from the gateway's tokenizer. */
export const TOKEN_COUNT_HEADER = 'x-gateway-token-count';

/**
 * POST /v1/messages/count_tokens: proxied to the provider for Anthropic-protocol models; for any other
 * allowlisted model, counted with a tokenizer and marked as an estimate. Counting generates nothing, so it
 * is neither metered nor charged against limits.
 */
export async function handleCountTokens(request: GatewayRequest, services: GatewayServices): Promise<GatewayResponse> {
  const { config, orgRates } = await admitRequest(request, services, 'messages');
  const countRequest = parseMessagesRequest(request.body);
  const { project } = config;
  const [target] = planRoute(
    {
      model: countRequest.model,
      fallbackModels: [],
      failoverEnabled: false,
      preferences: parseProviderPreferences(countRequest.provider),
      protocols: ['anthropic', 'openai'],
      parameters: [],
      isCoolingDown: (slug) => services.coolDown.isCoolingDown(coolDownKey(project.projectId, slug)),
    },
    config,
    orgRates,
  );
  if (target?.provider.protocol !== 'anthropic') {
    return jsonResponse(200, await countMessagesTokensEstimate(countRequest), { [TOKEN_COUNT_HEADER]: 'estimated' });
  }
  try {
    const { response } = await tryTargets(
      [target],
      // count_tokens takes neither an output cap nor streaming.
      (chosen) => ({
        path: '/messages/count_tokens',
        headers: anthropicUpstreamHeaders(request, false),
        body: buildUpstreamMessagesBody(countRequest, chosen.model.model, ['max_tokens', 'stream']),
      }),
      {
        services,
        projectId: project.projectId,
        firstByteTimeoutMs: project.upstreamFirstByteTimeoutMs ?? services.settings.upstreamFirstByteTimeoutMs,
        deadlineAt: services.clock.now() + (project.requestDeadlineMs ?? services.settings.requestDeadlineMs),
      },
    );
    const body = await response.text();
    return { status: response.status, headers: { 'content-type': response.headers.get('content-type') ?? 'application/json', [TOKEN_COUNT_HEADER]: 'provider' }, body };
  } catch (thrown) {
    const error = toGatewayError(thrown);
    const answer = error instanceof AttemptsExhaustedError ? error.failures.at(-1)?.answer : undefined;
    if (answer) return relayUpstreamError(answer);
    throw error;
  }
}
