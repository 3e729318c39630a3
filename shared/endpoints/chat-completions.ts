import { GatewayError } from '../core/errors.ts';
import type { GatewayRequest, GatewayResponse } from '../http/gateway-http.ts';
import { meterChatCompletion } from '../protocols/openai-chat/chat-completion-meter.ts';
import { clientAskedForStreamUsage, parseChatCompletionRequest } from '../protocols/openai-chat/chat-request.ts';
import { convertMessagesResponseToChat } from '../canonical/messages-to-chat-response.ts';
import { anthropicErrorAsChat } from '../canonical/translate-upstream-error.ts';
import { translateInto } from '../transport/compose-event-handlers.ts';
import { chatRequestFor, messagesToChatFrames } from './chat-upstream.ts';
import { openAiStreamErrorFrame } from '../protocols/openai-chat/openai-errors.ts';
import { relaySseStream } from '../transport/sse-relay.ts';
import { redactSecrets } from '../transport/upstream-errors.ts';
import { admitRequest } from '../pipeline/admit-request.ts';
import { chatUsageEstimator, createChatStreamHandler, estimateChatUsageBound, usdPricer } from './chat-metering.ts';
import type { GatewayServices } from '../pipeline/gateway-services.ts';
import type { RouteContext } from '../pipeline/route-context.ts';
import { routeAndAttempt } from '../pipeline/route-and-attempt.ts';
import { recordUsage, ZERO_USAGE, type AttemptOutcome } from '../pipeline/record-usage.ts';

/**
 * POST /v1/chat/completions: plans the upstreams to try, fails over between them before the first byte
 * reaches the client, and passes the answer through natively (the client's body minus routing-only
 * fields, the upstream's bytes back), metered on the way: one usage record per request.
 */
export async function handleChatCompletions(request: GatewayRequest, services: GatewayServices, route: RouteContext): Promise<GatewayResponse> {
  const admitted = await admitRequest(request, services, 'chat');
  const chatRequest = parseChatCompletionRequest(request.body);
  const { project } = admitted.config;
  const served = await routeAndAttempt(request, services, route, admitted, chatRequest, {
    endpoint: 'chat.completions',
    // Anthropic-protocol models are reached through translation; OpenAI-compatible ones natively.
    protocols: ['openai', 'anthropic'],
    estimate: () => estimateChatUsageBound(chatRequest),
    requestFor: chatRequestFor(chatRequest, request),
  });
  const { target, response: upstream, apiKey, metering, attempt, servedBy } = served;
  const streaming = chatRequest.stream === true;
  const provider = target.provider.provider;
  const translated = target.provider.protocol !== 'openai';
  const contentType = upstream.headers.get('content-type') ?? (streaming ? 'text/event-stream' : 'application/json');

  if (!upstream.ok) {
    // The provider found fault with the client's request: its own words help the client most
    // (scrubbed of the provider key, which some providers echo). Not retried elsewhere.
    const upstreamBody = redactSecrets(await readWholeBody(upstream, provider), apiKey);
    const body = translated ? anthropicErrorAsChat(upstreamBody) : upstreamBody;
    await recordUsage(services, metering, { ...attempt, status: 'failed', httpStatus: upstream.status, errorCode: 'upstream_rejected_request', usage: ZERO_USAGE });
    return { status: upstream.status, headers: { 'content-type': translated ? 'application/json' : contentType, ...servedBy }, body };
  }

  const estimate = chatUsageEstimator(chatRequest.messages);
  const injectCost = project.usageInjection;
  if (streaming && upstream.body) {
    const stream = createChatStreamHandler({ clientAskedForUsage: clientAskedForStreamUsage(chatRequest), injectCost, rate: target.rate, estimate });
    const created = Math.floor(services.clock.now() / 1000);
    const body = relaySseStream(upstream.body, {
      provider,
      handler: translated ? translateInto(messagesToChatFrames(chatRequest.model, created), stream.handler) : stream.handler,
      errorFrame: openAiStreamErrorFrame,
      heartbeatIntervalMs: services.settings.heartbeatIntervalMs,
      onSettled: async (settlement) => {
        const { finishReason, upstreamId } = stream.meter.result();
        const outcome: AttemptOutcome = {
          ...attempt,
          status: settlement.outcome,
          httpStatus: settlement.outcome === 'failed' ? settlement.error.status : 200,
          usage: await stream.finalUsage(),
          ...(settlement.outcome === 'failed' ? { errorCode: settlement.error.code } : {}),
          ...(finishReason ? { finishReason } : {}),
          ...(upstreamId ? { upstreamId } : {}),
        };
        await recordUsage(services, metering, outcome);
      },
    });
    return { status: 200, headers: { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', ...servedBy }, body };
  }

  const answer = await readWholeBody(upstream, provider);
  const chatAnswer = translated ? translateMessagesAnswer(answer, chatRequest.model, services.clock.now()) : answer;
  const metered = await meterChatCompletion(chatAnswer, { injectCost, priceUsd: usdPricer(target.rate), estimate });
  await recordUsage(services, metering, {
    ...attempt,
    status: 'completed',
    httpStatus: 200,
    usage: metered.usage,
    ...(metered.finishReason ? { finishReason: metered.finishReason } : {}),
    ...(metered.upstreamId ? { upstreamId: metered.upstreamId } : {}),
  });
  return { status: 200, headers: { 'content-type': translated ? 'application/json' : contentType, ...servedBy }, body: metered.body };
}

/** A Messages answer as a chat completion (a body that is not JSON passes as it is, to be metered by estimate). */
function translateMessagesAnswer(text: string, model: string, now: number): string {
  try {
    return JSON.stringify(convertMessagesResponseToChat(JSON.parse(text), { model, created: Math.floor(now / 1000) }));
  } catch {
    return text;
  }
}

async function readWholeBody(upstream: Response, provider: string): Promise<string> {
  try {
    return await upstream.text();
  } catch (cause) {
    throw new GatewayError('upstream', `Provider "${provider}" broke off the response.`, { code: 'upstream_stream_interrupted', cause });
  }
}
