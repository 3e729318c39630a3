import type { RouteTarget } from '../core/plan-route.ts';
import type { GatewayRequest, GatewayResponse } from '../http/gateway-http.ts';
import { anthropicStreamErrorFrame } from '../protocols/anthropic-messages/anthropic-errors.ts';
import { messagesPromptText } from '../protocols/anthropic-messages/count-tokens.ts';
import { parseMessagesRequest, type MessagesRequest } from '../protocols/anthropic-messages/messages-request.ts';
import { chatErrorAsAnthropic } from '../canonical/translate-upstream-error.ts';
import { translateInto } from '../transport/compose-event-handlers.ts';
import { chatToMessagesFrames, messagesRequestFor, translateChatAnswer } from './messages-upstream-request.ts';
import { meterMessagesResponse } from '../protocols/anthropic-messages/messages-response-meter.ts';
import { createMessagesStreamMeter } from '../protocols/anthropic-messages/messages-stream-meter.ts';
import { relaySseStream } from '../transport/sse-relay.ts';
import { readUpstreamErrorAnswer, type UpstreamErrorAnswer } from '../transport/upstream-errors.ts';
import { admitRequest } from '../pipeline/admit-request.ts';
import { DEFAULT_MAX_OUTPUT_TOKENS, type UsageEstimate } from '../pipeline/admit-usage.ts';
import { AttemptsExhaustedError } from '../pipeline/failover.ts';
import type { GatewayServices } from '../pipeline/gateway-services.ts';
import { relayUpstreamError } from './messages-upstream.ts';
import type { RouteContext } from '../pipeline/route-context.ts';
import { messagesUsageEstimator } from './messages-metering.ts';
import { routeAndAttempt } from '../pipeline/route-and-attempt.ts';
import { recordUsage, ZERO_USAGE } from '../pipeline/record-usage.ts';

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
  const admitted = await admitRequest(request, services, 'messages');
  const messagesRequest = parseMessagesRequest(request.body);
  let served;
  try {
    served = await routeAndAttempt(request, services, route, admitted, messagesRequest, {
      endpoint: 'messages',
      // OpenAI-compatible models are reached through translation; Anthropic-protocol ones natively.
      protocols: ['anthropic', 'openai'],
      estimate: () => estimateMessagesUsageBound(messagesRequest),
      requestFor: messagesRequestFor(messagesRequest, request),
    });
  } catch (thrown) {
    // One attempt: the upstream's own answer (its wording matters to Claude Code); several: the list of attempts.
    const last = thrown instanceof AttemptsExhaustedError && thrown.failures.length === 1 ? thrown.failures[0] : undefined;
    if (last?.answer) return relayUpstreamError(inAnthropicWords(last.answer, last.target));
    throw thrown;
  }
  const { target, response: upstream, apiKey, metering, attempt, servedBy } = served;
  const streaming = messagesRequest.stream === true;
  const translated = target.provider.protocol !== 'anthropic';
  const messageId = `msg_${route.requestId.replace(/[^0-9A-Za-z]/g, '')}`;
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
