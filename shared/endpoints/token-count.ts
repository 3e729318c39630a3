import type { EndpointName } from '../core/endpoints.ts';
import { toGatewayError } from '../core/errors.ts';
import type { ConversationProtocolId } from '../core/project-config.ts';
import { jsonResponse, parsedJsonBody, type GatewayRequest, type GatewayResponse } from '../http/gateway-http.ts';
import { admitRequest } from '../pipeline/admit-request.ts';
import { admitTokenCountRate } from '../pipeline/admit-usage.ts';
import { AttemptsExhaustedError, tryTargets } from '../pipeline/failover.ts';
import type { GatewayServices } from '../pipeline/gateway-services.ts';
import type { RoutableBody, RoutingContext } from '../pipeline/generation-endpoint.ts';
import { attemptLimits, planTargets } from '../pipeline/plan-targets.ts';
import type { RouteContext } from '../pipeline/route-context.ts';
import type { UpstreamRequest } from '../protocols/bridge.ts';
import type { RequestBodyJson } from '../protocols/parse-model-request.ts';
import { REACHABLE_PROTOCOLS } from '../protocols/registry.ts';
import { readBeforeDeadline } from '../transport/answer-time-limits.ts';
import type { UpstreamErrorAnswer } from '../transport/upstream-errors.ts';

/** Tells the client whether a count came from the model's provider or from the gateway's tokenizer. */
export const TOKEN_COUNT_HEADER = 'x-gateway-token-count';

/**
 * A protocol's token-counting endpoint (Anthropic's count_tokens, OpenAI's Responses input_tokens): only
 * what differs between them. Admission, planning, the attempt and the request windows are handleTokenCount's.
 */
export interface TokenCountEndpoint<Body extends RoutableBody> {
  name: EndpointName;
  /** How the 429 of the count's own request windows names them (`count_tokens requests per minute of this key`). */
  rateLabel: string;
  parse(body: RequestBodyJson): Body;
  /** Routing the body implies (a previous response's provider), as for the protocol's generation endpoint. */
  refineRouting?(body: Body, context: RoutingContext): Promise<Body>;
  /** The provider protocol whose providers count: a target speaking it is asked, any other is estimated. */
  countingProtocol: ConversationProtocolId;
  /** The count request for the target's provider (its own model id, routing fields removed). */
  upstreamRequest(body: Body, upstreamModel: string, clientHeaders: GatewayRequest['headers']): UpstreamRequest;
  /** The gateway's tokenizer count, in the protocol's answer shape. */
  estimate(body: Body): Promise<unknown>;
  /** A provider's refusal, in the protocol's error body. */
  relayUpstreamError(answer: UpstreamErrorAnswer): GatewayResponse;
}

/**
 * Counts a request's input tokens: asked of the model's provider when it speaks the counting protocol, else
 * counted with the gateway's tokenizer and marked as an estimate (TOKEN_COUNT_HEADER). Counting generates
 * nothing, so it is not metered and takes nothing from the limits of generation requests; it has
 * requests-per-minute windows of its own with the same limits (admitTokenCountRate), so a flood of counts
 * is refused without locking real turns out. The key, the project's policy and the model allowlist are
 * checked as for any request; the same planning and attempt step as every generation request, for one
 * target and without failover.
 */
export async function handleTokenCount<Body extends RoutableBody>(
  endpoint: TokenCountEndpoint<Body>,
  request: GatewayRequest,
  services: GatewayServices,
  route: RouteContext,
): Promise<GatewayResponse> {
  const admitted = await admitRequest(request, services, endpoint.name);
  const rateHeaders = await admitTokenCountRate(services, { key: admitted.key, project: admitted.config.project }, endpoint.rateLabel);
  const parsed = endpoint.parse(parsedJsonBody(request));
  const body = endpoint.refineRouting ? await endpoint.refineRouting(parsed, { config: admitted.config, services }) : parsed;
  const [target] = planTargets(services, admitted, { ...body, models: [], route: undefined }, {
    // Every model can be counted: by its provider when it speaks the counting protocol, else estimated.
    protocols: REACHABLE_PROTOCOLS,
    modelKinds: ['chat'],
  });
  if (!target?.provider.protocols.includes(endpoint.countingProtocol)) {
    return jsonResponse(200, await endpoint.estimate(body), { ...rateHeaders, [TOKEN_COUNT_HEADER]: 'estimated' });
  }
  // A count is answered in JSON: behind CloudFront it must start before the origin read timeout.
  const limits = attemptLimits(services, admitted, route.receivedAt, false);
  try {
    const served = await tryTargets([target], (chosen) => endpoint.upstreamRequest(body, chosen.model.model, request.headers), {
      services,
      projectId: admitted.config.project.projectId,
      ...limits,
    });
    if (served.rejection) return withHeaders(endpoint.relayUpstreamError(served.rejection), rateHeaders);
    // The count's body is bounded by the request's deadline, as a generation's is.
    const text = await readBeforeDeadline(served.response.text(), { remainingMs: limits.deadlineAt - services.clock.now(), provider: served.target.provider.provider, abort: served.abort });
    const contentType = served.response.headers.get('content-type') ?? 'application/json';
    return { status: served.response.status, headers: { ...rateHeaders, 'content-type': contentType, [TOKEN_COUNT_HEADER]: 'provider' }, body: text };
  } catch (thrown) {
    const error = toGatewayError(thrown);
    const answer = error instanceof AttemptsExhaustedError ? error.failures.at(-1)?.answer : undefined;
    if (answer) return endpoint.relayUpstreamError(answer);
    throw error;
  }
}

function withHeaders(response: GatewayResponse, headers: Record<string, string>): GatewayResponse {
  return { ...response, headers: { ...response.headers, ...headers } };
}
