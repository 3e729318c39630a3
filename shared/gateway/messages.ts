import { toGatewayError } from '../core/errors.ts';
import { planRoute, type RouteTarget } from '../core/plan-route.ts';
import { parseProviderPreferences } from '../core/provider-preferences.ts';
import type { GatewayRequest, GatewayResponse } from '../http/gateway-http.ts';
import { anthropicStreamErrorFrame } from '../protocols/anthropic-messages/anthropic-errors.ts';
import { messagesPromptText } from '../protocols/anthropic-messages/count-tokens.ts';
import { parseMessagesRequest, type MessagesRequest } from '../protocols/anthropic-messages/messages-request.ts';
import { chatErrorAsAnthropic } from '../translation/translate-upstream-error.ts';
import { translateInto } from '../upstream/compose-event-handlers.ts';
import { chatToMessagesFrames, messagesRequestFor, translateChatAnswer } from './messages-upstream-request.ts';
import { meterMessagesResponse } from '../protocols/anthropic-messages/messages-response-meter.ts';
import { createMessagesStreamMeter } from '../protocols/anthropic-messages/messages-stream-meter.ts';
import { relaySseStream } from '../upstream/sse-relay.ts';
import { readUpstreamErrorAnswer, type UpstreamErrorAnswer } from '../upstream/upstream-errors.ts';
import { admitRequest } from './admit-request.ts';
import { admitUsage, DEFAULT_MAX_OUTPUT_TOKENS, type UsageEstimate } from './admit-usage.ts';
import { readAttribution } from './attribution.ts';
import { AttemptsExhaustedError, coolDownKey, tryTargets } from './failover.ts';
import type { GatewayServices } from './gateway-services.ts';
import { relayUpstreamError } from './messages-upstream.ts';
import type { RouteContext } from './route-context.ts';
import { messagesUsageEstimator } from './messages-metering.ts';
import { recordUsage, ZERO_USAGE } from './usage-recorder.ts';

function estimateMessagesUsageBound(request: MessagesRequest): UsageEstimate {
  const cap = typeof request.max_tokens === 'number' && request.max_tokens > 0 ? request.max_tokens : undefined;
  return {
    promptTokens: Math.ceil(messagesPromptText(request).length / 4),
    maxOutputTokens: cap ?? DEFAULT_MAX_OUTPUT_TOKENS,
    outputCapGiven: cap !== undefined,
  };
}

/**
 * POST /v1/messages, the messages-style protocol, forwarded natively to the project's Anthropic-protocol
 * providers: the body minus routing-only fields, the event bytes back untouched (thinking, signatures,
 * server tools, unknown events), metered on the side; failover and admission as on every route group.
 */
export async function handleMessages(request: GatewayRequest, services: GatewayServices, route: RouteContext): Promise<GatewayResponse> {
  const { key, config, orgRates } = await admitRequest(request, services, 'messages');
  const messagesRequest = parseMessagesRequest(request.body);
  const { project } = config;
  const targets = planRoute(
    {
      model: messagesRequest.model,
      fallbackModels: messagesRequest.models ?? [],
      failoverEnabled: messagesRequest.route === 'fallback' || project.failover,
      preferences: parseProviderPreferences(messagesRequest.provider),
      // OpenAI-compatible models are reached through translation; Anthropic-protocol ones natively.
      protocols: ['anthropic', 'openai'],
      parameters: Object.entries(messagesRequest).filter(([, value]) => value !== null && value !== undefined && value !== false).map(([name]) => name),
      isCoolingDown: (slug) => services.coolDown.isCoolingDown(coolDownKey(project.projectId, slug)),
    },
    config,
    orgRates,
  );
  const admission = await admitUsage(services, { key, project, targets }, estimateMessagesUsageBound(messagesRequest));
  const streaming = messagesRequest.stream === true;
  const metering = {
    requestId: route.requestId,
    projectId: project.projectId,
    keyId: key.keyId,
    endpoint: 'messages',
    attribution: readAttribution(request.headers),
    startedAt: route.receivedAt,
    admission,
  };
  const outcomeBase = (target: RouteTarget, fallbackAttempts: number) => ({
    model: target.model.slug,
    provider: target.provider.provider,
    rate: target.rate,
    streamed: streaming,
    fallbackAttempts,
  });

  let served;
  try {
    served = await tryTargets(
      targets,
      messagesRequestFor(messagesRequest, request),
      {
        services,
        projectId: project.projectId,
        firstByteTimeoutMs: project.upstreamFirstByteTimeoutMs ?? services.settings.upstreamFirstByteTimeoutMs,
        deadlineAt: route.receivedAt + (project.requestDeadlineMs ?? services.settings.requestDeadlineMs),
      },
    );
  } catch (thrown) {
    const error = toGatewayError(thrown);
    const last = error instanceof AttemptsExhaustedError ? error.failures.at(-1) : undefined;
    if (!(error instanceof AttemptsExhaustedError) || !last) {
      await services.balances.release(project.projectId, admission.reservedNanos).catch(() => undefined);
      throw error;
    }
    await recordUsage(services, metering, { ...outcomeBase(last.target, error.failures.length), status: 'failed', httpStatus: error.status, errorCode: error.code, usage: ZERO_USAGE });
    // One attempt: the upstream's own answer (its wording matters to Claude Code); several: the list of attempts.
    if (last.answer && error.failures.length === 1) return relayUpstreamError(inAnthropicWords(last.answer, last.target));
    throw error;
  }

  const { target, response: upstream, apiKey, failures } = served;
  const attempt = { ...outcomeBase(target, failures.length), upstreamRespondedAt: services.clock.now() };
  const translated = target.provider.protocol !== 'anthropic';
  const messageId = `msg_${route.requestId.replace(/[^0-9A-Za-z]/g, '')}`;
  const servedBy = { ...admission.headers, 'x-gateway-model': target.model.slug, 'x-gateway-provider': target.provider.provider, 'x-generation-id': route.requestId };
  if (!upstream.ok) {
    const answer = await readUpstreamErrorAnswer(upstream, apiKey);
    await recordUsage(services, metering, { ...attempt, status: 'failed', httpStatus: upstream.status, errorCode: 'upstream_rejected_request', usage: ZERO_USAGE });
    const relayed = relayUpstreamError(inAnthropicWords(answer, target));
    return { ...relayed, headers: { ...relayed.headers, ...servedBy } };
  }

  const estimate = messagesUsageEstimator(messagesRequest);
  const contentType = upstream.headers.get('content-type') ?? (streaming ? 'text/event-stream' : 'application/json');
  if (streaming && upstream.body) {
    const meter = createMessagesStreamMeter();
    const native = { onEvent: (event: string) => meter.push(event), onEnd: () => '' };
    const inputEstimate = Math.ceil(messagesPromptText(messagesRequest).length / 4);
    const body = relaySseStream(upstream.body, {
      provider: target.provider.provider,
      handler: translated ? translateInto(chatToMessagesFrames(messagesRequest.model, messageId, inputEstimate), native) : native,
      errorFrame: anthropicStreamErrorFrame,
      heartbeatIntervalMs: services.settings.heartbeatIntervalMs,
      onSettled: async (settlement) => {
        const observed = meter.result();
        const usage = observed.usage && observed.outputTokensFinal ? observed.usage : await estimate(observed);
        const failed = settlement.outcome === 'failed' || observed.upstreamError !== undefined;
        await recordUsage(services, metering, {
          ...attempt,
          status: failed ? 'failed' : settlement.outcome,
          httpStatus: settlement.outcome === 'failed' ? settlement.error.status : 200,
          usage,
          ...(settlement.outcome === 'failed' ? { errorCode: settlement.error.code } : observed.upstreamError ? { errorCode: observed.upstreamError.type } : {}),
          ...(observed.stopReason ? { finishReason: observed.stopReason } : {}),
          ...(observed.upstreamId ? { upstreamId: observed.upstreamId } : {}),
        });
      },
    });
    return { status: 200, headers: { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', ...servedBy }, body };
  }

  const answer = await upstream.text();
  const text = translated ? translateChatAnswer(answer, messagesRequest.model, messageId) : answer;
  const observed = meterMessagesResponse(text);
  await recordUsage(services, metering, {
    ...attempt,
    status: 'completed',
    httpStatus: 200,
    usage: observed.usage ?? (await estimate(observed)),
    ...(observed.stopReason ? { finishReason: observed.stopReason } : {}),
    ...(observed.upstreamId ? { upstreamId: observed.upstreamId } : {}),
  });
  return { status: 200, headers: { 'content-type': translated ? 'application/json' : contentType, ...servedBy }, body: text };
}

/** An upstream error answer in Anthropic's words, translated when a chat provider gave it. */
function inAnthropicWords(answer: UpstreamErrorAnswer, target: RouteTarget): UpstreamErrorAnswer {
  return target.provider.protocol === 'anthropic' ? answer : { ...answer, contentType: 'application/json', body: chatErrorAsAnthropic(answer.body) };
}
