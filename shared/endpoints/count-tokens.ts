import { toGatewayError } from '../core/errors.ts';
import { jsonResponse, parsedJsonBody, type GatewayRequest, type GatewayResponse } from '../http/gateway-http.ts';
import { admitRequest } from '../pipeline/admit-request.ts';
import { admitTokenCountRate } from '../pipeline/admit-usage.ts';
import { AttemptsExhaustedError, tryTargets } from '../pipeline/failover.ts';
import { readBeforeDeadline } from '../transport/answer-time-limits.ts';
import type { GatewayServices } from '../pipeline/gateway-services.ts';
import { attemptLimits, planTargets } from '../pipeline/plan-targets.ts';
import type { RouteContext } from '../pipeline/route-context.ts';
import { anthropicMessagesProtocol, anthropicProtocolHeaders } from '../protocols/anthropic-messages/anthropic-messages-protocol.ts';
import { REACHABLE_PROTOCOLS } from '../protocols/registry.ts';
import { countMessagesTokensEstimate } from '../protocols/anthropic-messages/count-tokens.ts';
import { buildUpstreamMessagesBody, parseMessagesRequest } from '../protocols/anthropic-messages/messages-request.ts';

/** Tells the client whether a count came from the model's provider or from the gateway's tokenizer. */
export const TOKEN_COUNT_HEADER = 'x-gateway-token-count';

/**
 * POST /v1/messages/count_tokens: asked of the provider for models whose provider speaks Anthropic's
 * protocol; for any other allowlisted model, counted with the gateway's tokenizer and marked as an
 * estimate (bounded: see countTokens). Counting generates nothing, so it is not metered and takes nothing
 * from the limits of generation requests; it has requests-per-minute windows of its own with the same
 * limits (admitTokenCountRate), so a flood of counts is refused without locking real turns out. The key,
 * the project's policy and the model allowlist are checked as for any request. The same planning and
 * attempt step as every generation request, for one target and without failover.
 */
export async function handleCountTokens(request: GatewayRequest, services: GatewayServices, route: RouteContext): Promise<GatewayResponse> {
  const admitted = await admitRequest(request, services, 'messages.count_tokens');
  const rateHeaders = await admitTokenCountRate(services, { key: admitted.key, project: admitted.config.project });
  const countRequest = parseMessagesRequest(parsedJsonBody(request));
  const [target] = planTargets(services, admitted, { ...countRequest, models: [], route: undefined }, {
    // Every model can be counted: by its provider when it speaks Anthropic's protocol, else estimated.
    protocols: REACHABLE_PROTOCOLS,
    modelKinds: ['chat'],
  });
  if (!target?.provider.protocols.includes('anthropic-messages')) {
    return jsonResponse(200, await countMessagesTokensEstimate(countRequest), { ...rateHeaders, [TOKEN_COUNT_HEADER]: 'estimated' });
  }
  const limits = attemptLimits(services, admitted, route.receivedAt);
  try {
    const { response, target: served, abort } = await tryTargets(
      [target],
      // count_tokens takes neither an output cap nor streaming.
      (chosen) => ({
        path: '/messages/count_tokens',
        headers: anthropicProtocolHeaders(request.headers, false),
        body: buildUpstreamMessagesBody(countRequest, chosen.model.model, ['max_tokens', 'stream']),
      }),
      { services, projectId: admitted.config.project.projectId, ...limits },
    );
    // The count's body is bounded by the request's deadline, as a generation's is.
    const body = await readBeforeDeadline(response.text(), { remainingMs: limits.deadlineAt - services.clock.now(), provider: served.provider.provider, abort });
    return { status: response.status, headers: { ...rateHeaders, 'content-type': response.headers.get('content-type') ?? 'application/json', [TOKEN_COUNT_HEADER]: 'provider' }, body };
  } catch (thrown) {
    const error = toGatewayError(thrown);
    const answer = error instanceof AttemptsExhaustedError ? error.failures.at(-1)?.answer : undefined;
    if (answer) return anthropicMessagesProtocol.relayUpstreamError(answer);
    throw error;
  }
}
