import type { CanonicalRequest } from '../canonical/canonical-request.ts';
import { toGatewayError, withErrorHeaders } from '../core/errors.ts';
import type { RouteTarget } from '../core/plan-route.ts';
import { priceUsage, formatUsd } from '../core/price-usage.ts';
import { takesCustomTools } from '../core/provider-catalog.ts';
import { ZERO_USAGE } from '../core/token-usage.ts';
import type { GatewayRequest, GatewayResponse } from '../http/gateway-http.ts';
import { chooseBridge, type Bridge } from '../protocols/bridge.ts';
import { REACHABLE_PROTOCOLS } from '../protocols/registry.ts';
import { asksForUsageCost } from '../protocols/routing-fields.ts';
import type { Presentation } from '../protocols/wire-protocol.ts';
import { readUpstreamErrorAnswer } from '../transport/upstream-errors.ts';
import { admitRequest } from './admit-request.ts';
import { admitUsage } from './admit-usage.ts';
import { withAcceptedRequest } from './accepted-request.ts';
import { readAttribution } from './attribution.ts';
import { countImageParts, createUsageEstimator, estimateUsageBound } from './estimate-usage.ts';
import { AttemptsExhaustedError, tryTargets, type ServedAttempt } from './failover.ts';
import { withoutGatewayFields, type GenerationEndpoint, type RoutableBody } from './generation-endpoint.ts';
import type { GatewayServices } from './gateway-services.ts';
import { readJsonAnswer } from './json-answer.ts';
import { attemptLimits, commitAfterMs, planTargets } from './plan-targets.ts';
import { holdOrCommit } from './commit-early.ts';
import { createUsageSettlement, type AttemptDescription, type AttemptOutcome } from './record-usage.ts';
import type { RouteContext } from './route-context.ts';
import { streamAnswer } from './stream-answer.ts';


/**
 * The one generation pipeline, for every endpoint: admit (key, project, policy) → parse → plan the
 * targets → admit usage (rate limits, balance reservation) → try the targets with failover → relay the
 * stream or read the answer, through the bridge chosen for the target that answered → meter. Every exit
 * (success, upstream refusal, exhausted attempts, a body that breaks off, a client that goes away, a bug)
 * settles usage exactly once: in the `finally` below, or, for a stream handed to the client, when the
 * stream settles.
 */
export async function runGeneration<Body extends RoutableBody>(
  endpoint: GenerationEndpoint<Body>,
  request: GatewayRequest,
  services: GatewayServices,
  route: RouteContext,
): Promise<GatewayResponse> {
  const admitted = await admitRequest(request, services, endpoint.name);
  endpoint.admitProject?.(admitted.config.project);
  const body = await endpoint.parse(request);
  const { key, config } = admitted;
  const { project } = config;
  const routed = endpoint.refineRouting ? await endpoint.refineRouting(body, { config, services }) : body;
  const targets =
    endpoint.targetsWithoutModel?.(routed, admitted) ??
    planTargets(services, admitted, routed, { protocols: endpoint.upstream?.protocols ?? REACHABLE_PROTOCOLS, modelKinds: endpoint.modelKinds });
  let promptText: string | undefined;
  const prompt = () => (promptText ??= endpoint.promptText(body));
  const admission = await admitUsage(services, { key, project, targets }, () =>
    estimateUsageBound(prompt(), endpoint.maxOutputTokens(body), {
      bodyBytes: request.body.byteLength,
      images: countImageParts(body),
      tools: Array.isArray(body.tools) && body.tools.length > 0,
      ...(endpoint.unitsBound ? { units: endpoint.unitsBound(body) } : {}),
      ...(endpoint.generations ? { generations: endpoint.generations(body) } : {}),
    }),
  );
  const { annotateRecord } = endpoint;
  const settlement = createUsageSettlement(services, {
    requestId: route.requestId,
    projectId: project.projectId,
    keyId: key.keyId,
    endpoint: endpoint.name,
    attribution: readAttribution(request.headers),
    startedAt: route.receivedAt,
    admission,
    ...(annotateRecord ? { annotate: () => annotateRecord(body) } : {}),
  }, route.afterAnswer);
  const estimate = createUsageEstimator(prompt);
  const streamed = body.stream === true;
  const clientBody = withoutGatewayFields(body);
  let canonical: CanonicalRequest | undefined;
  const bridgeTo = (target: RouteTarget): Bridge =>
    endpoint.upstream
      ? endpoint.upstream.bridgeTo(target, body)
      : chooseBridge(
          endpoint.clientProtocol,
          { protocols: target.provider.protocols, features: { customTools: takesCustomTools(target.provider.provider) } },
          clientBody,
          () => (canonical ??= endpoint.clientProtocol.readRequest(clientBody)),
        );

  const limits = attemptLimits(services, admitted, route.receivedAt, streamed);
  const answering = (async (): Promise<GatewayResponse> => {
    let attempt = describeAttempt(targets[0] as RouteTarget, 0, streamed);
    let served: ServedAttempt | undefined;
    // What the `finally` records unless a path below says otherwise: a failure the gateway did not foresee.
    let outcome: AttemptOutcome = { ...attempt, status: 'failed', httpStatus: 500, errorCode: 'internal_error', usage: ZERO_USAGE };
    let handedToStream = false;
    try {
      served = await tryTargets(targets, (target) => bridgeTo(target).request(clientBody, target.model.model, request.headers), {
        services,
        projectId: project.projectId,
        ...limits,
        onAttempt: (target, failures) => (attempt = describeAttempt(target, failures, streamed)),
      });
      const respondedAt = services.clock.now();
      attempt = { ...attempt, upstreamRespondedAt: respondedAt };
      // The request's deadline bounds the answer's body too, and a stream may not fall silent for longer
      // than its head could take (docs/decisions/routing-and-failover.md).
      const remainingMs = limits.deadlineAt - respondedAt;
      const bridge = bridgeTo(served.target);
      const servedBy = { ...admission.headers, 'x-gateway-model': served.target.model.slug, 'x-gateway-provider': served.target.provider.provider, 'x-generation-id': route.requestId };

      if (!served.response.ok) {
        // The provider found fault with the client's request: its own words (scrubbed of the provider key) help most.
        const answer = served.rejection ?? (await readUpstreamErrorAnswer(served.response, served.apiKey));
        outcome = { ...attempt, status: 'failed', httpStatus: answer.status, errorCode: 'upstream_rejected_request', usage: ZERO_USAGE };
        const relayed = bridge.relayUpstreamError(answer);
        return { ...relayed, headers: { ...relayed.headers, ...servedBy } };
      }
      // Should the process stop before the answer ends, this is what gets recorded (the provider bills the prompt).
      settlement.expect({ ...attempt, status: 'failed', httpStatus: 502, errorCode: 'gateway_interrupted', usage: { ...ZERO_USAGE, promptTokens: Math.ceil(prompt().length / 4), estimated: true } });
      // OpenRouter's `usage: {include: true}` asks for this request's cost, whatever the project's setting.
      const presentation = presentationFor(prompt, body, bridge, served.target, services, route, project.usageInjection || asksForUsageCost(body));
      const kind = bridge.answerKind(served.response, streamed);
      // Asked for only when relayed: the transport makes a web stream for `body`, which an answer read whole does without.
      const upstreamBody = kind === 'stream' ? served.response.body : null;
      if (upstreamBody) {
        // Made before the stream is handed over: a decoder that cannot be made (its codec failed to load) is
        // this request's failure, metered below, and the upstream's stream is let go.
        const decoder = await Promise.resolve(bridge.createStreamDecoder()).catch(async (error: unknown) => {
          await upstreamBody.cancel().catch(() => undefined);
          throw error;
        });
        handedToStream = true;
        const timeLimits = { remainingMs, idleMs: limits.firstByteTimeoutMs };
        return await streamAnswer({ bridge, served, decoder, presentation, estimate, settlement, attempt, servedBy, services, requestId: route.requestId, timeLimits });
      }
      if (kind === 'bytes') {
        // Only the endpoints beyond chat answer with bytes: their relay loads with them, not at every cold start.
        const { bytesAnswer } = await import('./bytes-answer.ts');
        handedToStream = true;
        return bytesAnswer({ bridge, served, estimate, settlement, attempt, servedBy, remainingMs });
      }
      const answer = await readJsonAnswer({ bridge, served, presentation, estimate, remainingMs });
      const upstreamId = answer.described.upstreamId;
      if (endpoint.keepCreated && upstreamId) {
        await endpoint.keepCreated({ upstreamId, payload: answer.payload, target: served.target, projectId: project.projectId, keyId: key.keyId, requestId: route.requestId }, services);
      }
      // The upstream's own success status (a pass-through's 201); 200 for every generation endpoint.
      const status = served.response.status;
      outcome = { ...attempt, status: 'completed', httpStatus: status, usage: withAcceptedRequest(answer.usage), ...answer.described };
      return { status, headers: { 'content-type': answer.contentType, ...servedBy }, body: answer.body };
    } catch (thrown) {
      const error = toGatewayError(thrown);
      const failed = error instanceof AttemptsExhaustedError ? error.failures : [];
      // Every target failed: `attempt` stays as onAttempt described the last target tried, so the record names
      // it and counts the fallbacks tried, the attempts after the first (none when one target failed; a target
      // the deadline left untried is no attempt).
      outcome = {
        ...attempt,
        status: 'failed',
        httpStatus: error.status,
        errorCode: error.code,
        // The upstream accepted the request before its answer broke off: it bills at least the prompt.
        usage: served?.response.ok ? withAcceptedRequest(await estimate({ completionText: '' })) : ZERO_USAGE,
      };
      // The failure is metered (below): its record is found by the id the answer names, as a success's is.
      const recorded = { 'x-generation-id': route.requestId };
      const only = failed.length === 1 ? failed[0] : undefined;
      if (endpoint.clientProtocol.relaysFailedAttempt && only?.answer) {
        const relayed = bridgeTo(only.target).relayUpstreamError(only.answer);
        return { ...relayed, headers: { ...relayed.headers, ...recorded } };
      }
      throw withErrorHeaders(error, recorded);
    } finally {
      if (!handedToStream) await settlement.settle(outcome);
    }

  })();
  const holdMs = commitAfterMs(services.settings, route.receivedAt, services.clock.now());
  if (!streamed || holdMs === undefined) return answering;
  return holdOrCommit(answering, {
    holdMs,
    heartbeatIntervalMs: services.settings.heartbeatIntervalMs,
    errorFrame: endpoint.clientProtocol.streamErrorFrame,
    contentType: endpoint.clientProtocol.streamContentType,
    headers: { ...admission.headers, 'x-generation-id': route.requestId },
  });
}

function describeAttempt(target: RouteTarget, fallbackAttempts: number, streamed: boolean): AttemptDescription {
  return { model: target.model.slug, provider: target.provider.provider, rate: target.rate, streamed, fallbackAttempts };
}

function presentationFor<Body extends RoutableBody>(
  prompt: () => string,
  body: Body,
  bridge: Bridge,
  target: RouteTarget,
  services: GatewayServices,
  route: RouteContext,
  injectCost: boolean,
): Omit<Presentation, 'finalUsage'> {
  return {
    model: target.model.model,
    created: Math.floor(services.clock.now() / 1000),
    responseId: route.requestId.replace(/[^0-9A-Za-z]/g, ''),
    showUsage: bridge.clientAskedForStreamUsage(body),
    injectCost,
    priceUsd: (usage) => formatUsd(priceUsage(withAcceptedRequest(usage), target.rate)),
    promptTokensEstimate: Math.ceil(prompt().length / 4),
  };
}
