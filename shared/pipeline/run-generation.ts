import type { CanonicalRequest } from '../canonical/canonical-request.ts';
import { toGatewayError, withErrorHeaders } from '../core/errors.ts';
import type { RouteTarget } from '../core/plan-route.ts';
import { priceUsage, formatUsd } from '../core/price-usage.ts';
import { ZERO_USAGE } from '../core/token-usage.ts';
import type { GatewayRequest, GatewayResponse } from '../http/gateway-http.ts';
import { chooseBridge, type Bridge } from '../protocols/bridge.ts';
import { bridgeProtocols, planBridge } from '../protocols/bridge-plan.ts';
import { loadWireProtocols, REACHABLE_PROTOCOLS } from '../protocols/registry.ts';
import { asksForUsageCost, unappliedGatewayFields } from '../protocols/routing-fields.ts';
import type { Presentation } from '../protocols/wire-protocol.ts';
import { bodyAsNodeStream } from '../transport/incoming-response.ts';
import { readUpstreamErrorAnswer } from '../transport/upstream-errors.ts';
import { admitRequest } from './admit-request.ts';
import { admitUsage } from './admit-usage.ts';
import { withAcceptedRequest } from './accepted-request.ts';
import { readAttribution } from './attribution.ts';
import { bodiesWithinReservation } from './within-reservation.ts';
import { bridgeTarget, oncePerTarget } from './target-bridge.ts';
import { createUsageEstimator, estimateUsageBound, promptParts } from './estimate-usage.ts';
import { AttemptsExhaustedError, tryTargets, type ServedAttempt } from './failover.ts';
import { withoutGatewayFields, type GenerationEndpoint, type RoutableBody } from './generation-endpoint.ts';
import type { GatewayServices } from './gateway-services.ts';
import { billedUsageOf } from './invalid-answer.ts';
import { readJsonAnswer } from './json-answer.ts';
import { attemptLimits, commitAfterMs, planTargets } from './plan-targets.ts';
import { holdOrCommit } from './commit-early.ts';
import { completeAnswerAsStream } from './complete-answer-stream.ts';
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
    planTargets(services, admitted, routed, {
      protocols: endpoint.upstream?.protocols ?? REACHABLE_PROTOCOLS,
      modelKinds: endpoint.modelKinds,
      onlyThoseBecause: endpoint.upstream?.onlyThoseBecause,
    });
  // The protocols of every target load before anything is reserved (a warm request has none to load), so
  // failing over never waits for one.
  const bridgeTargetOf = oncePerTarget(bridgeTarget);
  const loadingProtocols = endpoint.upstream ? undefined : loadWireProtocols(targets.flatMap((target) => bridgeProtocols(endpoint.clientProtocol, bridgeTargetOf(target))));
  if (loadingProtocols) await loadingProtocols;
  let promptText: string | undefined;
  const prompt = () => (promptText ??= endpoint.promptText(body));
  const promptTokenIds = () => endpoint.promptTokenIds?.(body) ?? 0;
  const admission = await admitUsage(services, { key, project, targets }, () => {
    const { images, heldPrompt } = promptParts(body);
    return estimateUsageBound(prompt(), endpoint.maxOutputTokens(body), {
      bodyBytes: request.body.byteLength,
      images,
      tools: Array.isArray(body.tools) && body.tools.length > 0,
      ...(endpoint.unitsBound ? { units: endpoint.unitsBound(body) } : {}),
      ...(endpoint.generations ? { generations: endpoint.generations(body) } : {}),
      promptTokenIds: promptTokenIds(),
      heldPrompt,
      ...(endpoint.thinkingBudget ? { thinkingBudget: endpoint.thinkingBudget(body) } : {}),
    });
  });
  const { annotateRecord } = endpoint;
  const settlement = createUsageSettlement(services, {
    requestId: route.requestId,
    projectId: project.projectId,
    keyId: key.keyId,
    endpoint: endpoint.name,
    attribution: readAttribution(request.headers, endpoint.endUser?.(body)),
    startedAt: route.receivedAt,
    admission,
    ...(annotateRecord ? { annotate: () => annotateRecord(body) } : {}),
  }, route.afterAnswer);
  const estimate = createUsageEstimator(prompt, promptTokenIds);
  const streamed = body.stream === true;
  const bodyFor = oncePerTarget(bodiesWithinReservation(endpoint, body, withoutGatewayFields(body), admission, (target) => planBridge(endpoint.clientProtocol, bridgeTargetOf(target)).carrier !== undefined));
  // Read once per body (a prepaid request may send a capped one to some targets): the served target's says what was dropped.
  const canonicals = new Map<Record<string, unknown>, CanonicalRequest>();
  const canonicalOf = (clientBody: Record<string, unknown>): CanonicalRequest => {
    let canonical = canonicals.get(clientBody);
    if (!canonical) canonicals.set(clientBody, (canonical = endpoint.clientProtocol.readRequest(clientBody)));
    return canonical;
  };
  // Chosen once per target: its request and its answer go through the same bridge.
  const bridgeTo = oncePerTarget((target): Bridge =>
    endpoint.upstream
      ? endpoint.upstream.bridgeTo(target, body)
      : chooseBridge(endpoint.clientProtocol, bridgeTargetOf(target), bodyFor(target), () => canonicalOf(bodyFor(target))),
  );

  const limits = attemptLimits(services, admitted, route.receivedAt, streamed);
  const answering = (async (): Promise<GatewayResponse> => {
    let attempt = describeAttempt(targets[0] as RouteTarget, 0, streamed);
    let served: ServedAttempt | undefined;
    // What the `finally` records unless a path below says otherwise: a failure the gateway did not foresee.
    let outcome: AttemptOutcome = { ...attempt, status: 'failed', httpStatus: 500, errorCode: 'internal_error', usage: ZERO_USAGE };
    let handedToStream = false;
    // Should the process stop before the request settles, this is what gets recorded: the provider was sent
    // the request and bills at least its prompt, and the record settles the balance reservation, which must
    // never outlive a crash (before 2026-11-25 it was left only once the provider's head came: a crash while
    // waiting for it lost the record and held the reservation for good). Left as each target is tried.
    const expectInterrupted = () =>
      settlement.expect(() => ({ ...attempt, status: 'failed', httpStatus: 502, errorCode: 'gateway_interrupted', usage: { ...ZERO_USAGE, promptTokens: Math.ceil(prompt().length / 4), estimated: true } }));
    /** A target's 200, taken before the attempts stop: a complete answer is read whole, so that one that is no answer fails over. */
    const take = async (candidate: ServedAttempt): Promise<TakenAnswer> => {
      const respondedAt = services.clock.now();
      attempt = { ...attempt, upstreamRespondedAt: respondedAt };
      // The upstream took the request: a failure from here on bills at least the prompt.
      served = candidate;
      const bridge = bridgeTo(candidate.target);
      // OpenRouter's `usage: {include: true}` asks for this request's cost, whatever the project's setting.
      const presentation = presentationFor(prompt, body, bridge, candidate.target, services, route, project.usageInjection || asksForUsageCost(body));
      const kind = bridge.answerKind(candidate.response, streamed);
      if (kind === 'stream') return { bridge, presentation, relay: 'stream' };
      if (kind === 'bytes') return { bridge, presentation, relay: 'bytes' };
      // The request's deadline bounds the answer's body too (docs/decisions/routing-and-failover.md).
      const json = await readJsonAnswer({ bridge, served: candidate, presentation, estimate, remainingMs: limits.deadlineAt - respondedAt });
      // An upstream that ignored `stream: true` answered whole: the client that asked for a stream still gets one.
      const stream = streamed ? await completeAnswerAsStream(bridge, json, presentation) : undefined;
      return { bridge, presentation, relay: 'json', json, ...(stream ? { stream } : {}) };
    };
    try {
      const taken = await tryTargets(targets, (target) => bridgeTo(target).request(bodyFor(target), target.model.model, request.headers), {
        services,
        projectId: project.projectId,
        ...limits,
        onAttempt: (target, failures) => {
          attempt = describeAttempt(target, failures, streamed);
          expectInterrupted();
        },
        readAnswer: take,
      });
      served = taken;
      // The request's deadline bounds the answer's body too, and a stream may not fall silent for longer
      // than its head could take (docs/decisions/routing-and-failover.md).
      const timeLimits = { remainingMs: limits.deadlineAt - services.clock.now(), idleMs: limits.firstByteTimeoutMs };
      const servedBy: Record<string, string> = { ...admission.headers, 'x-gateway-model': taken.target.model.slug, 'x-gateway-provider': taken.target.provider.provider, 'x-generation-id': route.requestId };

      const { answer } = taken;
      if (!answer) {
        // The provider found fault with the client's request: its own words (scrubbed of the provider key) help most.
        attempt = { ...attempt, upstreamRespondedAt: services.clock.now() };
        const rejection = taken.rejection ?? (await readUpstreamErrorAnswer(taken.response, taken.apiKey));
        outcome = { ...attempt, status: 'failed', httpStatus: rejection.status, errorCode: 'upstream_rejected_request', usage: ZERO_USAGE };
        const relayed = bridgeTo(taken.target).relayUpstreamError(rejection);
        return { ...relayed, headers: { ...relayed.headers, ...servedBy } };
      }
      const { bridge, presentation } = answer;
      // What the translation had no place for (chat's `seed` for Claude, …) and what the gateway accepts
      // without applying (OpenRouter's `transforms`): a setting that had no effect, named.
      const dropped = [...(bridge.native ? [] : (canonicals.get(bodyFor(taken.target))?.dropped.list() ?? [])), ...unappliedGatewayFields(body)];
      if (dropped.length > 0) servedBy['x-gateway-dropped-fields'] = dropped.join(', ');
      if (answer.relay === 'stream') {
        // Made before the stream is handed over: a decoder that cannot be made (its codec failed to load) is
        // this request's failure, metered below, and the upstream's stream is let go.
        const decoder = await Promise.resolve(bridge.createStreamDecoder()).catch((error: unknown) => {
          bodyAsNodeStream(taken.response).destroy();
          throw error;
        });
        handedToStream = true;
        return await streamAnswer({ bridge, served: taken, decoder, presentation, estimate, settlement, attempt, servedBy, services, requestId: route.requestId, timeLimits });
      }
      if (answer.relay === 'bytes') {
        // Only the endpoints beyond chat answer with bytes: their relay loads with them, not at every cold start.
        const { bytesAnswer } = await import('./bytes-answer.ts');
        handedToStream = true;
        return bytesAnswer({ bridge, served: taken, estimate, settlement, attempt, servedBy, timeLimits });
      }
      const { json, stream } = answer;
      const upstreamId = json.described.upstreamId;
      const kept = endpoint.keepCreated && upstreamId
        ? await endpoint.keepCreated({ upstreamId, reservedNanos: admission.reservedNanos, payload: json.payload, target: taken.target, projectId: project.projectId, keyId: key.keyId, requestId: route.requestId }, services)
        : undefined;
      // The upstream's own success status (a pass-through's 201); 200 for every generation endpoint.
      const status = taken.response.status;
      outcome = { ...attempt, status: 'completed', httpStatus: status, usage: withAcceptedRequest(json.usage), ...json.described };
      if (kept && kept.keptReservedNanos > 0) outcome.keptReservedNanos = kept.keptReservedNanos;
      // The id the client finds in the body, for looking the generation up by it (a stream written from the answer has the writer's).
      const answerId = bridge.answerId(upstreamId, presentation.responseId, stream !== undefined);
      if (answerId) outcome.answerId = answerId;
      if (stream) return { status, headers: { 'content-type': bridge.streamContentType, 'cache-control': 'no-cache', ...servedBy }, body: stream };
      return { status, headers: { 'content-type': json.contentType, ...servedBy }, body: json.body };
    } catch (thrown) {
      const error = toGatewayError(thrown);
      const exhausted = error instanceof AttemptsExhaustedError ? error : undefined;
      const failed = exhausted?.failures ?? [];
      // The record names the last target tried: whether it took the request decides whether the prompt is billed.
      const tookRequest = exhausted ? failed.at(-1)?.tookRequest === true : served?.response.ok === true;
      // Every target failed: `attempt` stays as onAttempt described the last target tried, so the record names
      // it and counts the fallbacks tried, the attempts after the first (none when one target failed; a target
      // the deadline left untried is no attempt).
      outcome = {
        ...attempt,
        status: 'failed',
        httpStatus: error.status,
        errorCode: error.code,
        // The upstream accepted the request before its answer broke off (or held no answer): it bills at least
        // the prompt; an answer it ended as failed, what it counted.
        usage: !tookRequest ? ZERO_USAGE : withAcceptedRequest(billedUsageOf(exhausted ? failed.at(-1)?.error : error) ?? (await estimate({ completionText: '' }))),
      };
      // The failure is metered (below): its record is found by the id the answer names, as a success's is.
      const recorded = { 'x-generation-id': route.requestId };
      // The only attempt's own answer, unless the deadline ended the attempts before the next target.
      const only = failed.length === 1 && !exhausted?.untried ? failed[0] : undefined;
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

/** How a target's 200 reaches the client, through the bridge chosen for the target. */
type TakenAnswer = { bridge: Bridge; presentation: Omit<Presentation, 'finalUsage'> } & (
  | { relay: 'stream' }
  | { relay: 'bytes' }
  | {
      relay: 'json';
      json: Awaited<ReturnType<typeof readJsonAnswer>>;
      /** The answer as the client protocol's stream, for a client that asked for one. */
      stream?: ReadableStream<Uint8Array>;
    }
);

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
    requestId: route.requestId,
    showUsage: bridge.clientAskedForStreamUsage(body),
    injectCost,
    priceUsd: (usage) => formatUsd(priceUsage(withAcceptedRequest(usage), target.rate)),
    promptTokensEstimate: Math.ceil(prompt().length / 4),
    clientBody: body,
  };
}
