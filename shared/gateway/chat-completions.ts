import { GatewayError, toGatewayError } from '../core/errors.ts';
import { effectiveRate } from '../core/project-config.ts';
import { providerRequiresApiKey } from '../core/provider-catalog.ts';
import { resolveModelTarget } from '../core/resolve-model.ts';
import type { GatewayRequest, GatewayResponse } from '../http/gateway-http.ts';
import { meterChatCompletion } from '../protocols/openai-chat/chat-completion-meter.ts';
import { buildUpstreamChatBody, clientAskedForStreamUsage, parseChatCompletionRequest } from '../protocols/openai-chat/chat-request.ts';
import { openAiStreamErrorFrame } from '../protocols/openai-chat/openai-errors.ts';
import { callUpstream } from '../upstream/call-upstream.ts';
import { relaySseStream } from '../upstream/sse-relay.ts';
import { isGatewaySideUpstreamStatus, redactSecrets, upstreamFailureToGatewayError } from '../upstream/upstream-errors.ts';
import { admitRequest, loadProviderApiKey } from './admit-request.ts';
import { readAttribution } from './attribution.ts';
import { chatUsageEstimator, createChatStreamHandler, usdPricer } from './chat-metering.ts';
import type { GatewayServices } from './gateway-services.ts';
import type { RouteContext } from './route-context.ts';
import { recordUsage, ZERO_USAGE, type AttemptOutcome } from './usage-recorder.ts';

/**
 * POST /v1/chat/completions, native pass-through to an OpenAI-compatible provider: the client's body
 * minus routing-only fields, the upstream's bytes back as they arrive, metered on the way. Every request
 * that reaches an upstream leaves exactly one usage record, whatever its outcome.
 */
export async function handleChatCompletions(request: GatewayRequest, services: GatewayServices, route: RouteContext): Promise<GatewayResponse> {
  const { key, config, orgRates } = await admitRequest(request, services);
  const chatRequest = parseChatCompletionRequest(request.body);
  const target = resolveModelTarget(chatRequest.model, config);
  if (target.provider.protocol !== 'openai') {
    throw new GatewayError(
      'invalid_request',
      `The model "${target.model.slug}" is served over the ${target.provider.protocol} protocol; /v1/chat/completions serves only OpenAI-compatible providers.`,
      { code: 'model_unsupported_for_endpoint', param: 'model' },
    );
  }
  const provider = target.provider.provider;
  const apiKey = await loadProviderApiKey(services, config.project.projectId, provider);
  if (!apiKey && providerRequiresApiKey(provider)) {
    throw new GatewayError('invalid_request', `No routable model: provider "${provider}" has no credential.`, { code: 'no_routable_model', param: 'model' });
  }

  const streaming = chatRequest.stream === true;
  const rate = effectiveRate(target.model.slug, config, orgRates);
  const metering = {
    requestId: route.requestId,
    projectId: config.project.projectId,
    keyId: key.keyId,
    endpoint: 'chat.completions',
    attribution: readAttribution(request.headers),
    startedAt: route.receivedAt,
  };
  const attempt = { model: target.model.slug, provider, rate, streamed: streaming, fallbackAttempts: 0 };
  const recordFailure = (httpStatus: number, errorCode: string) =>
    recordUsage(services, metering, { ...attempt, status: 'failed', httpStatus, errorCode, usage: ZERO_USAGE });

  let upstream: Response;
  try {
    upstream = await callUpstream({
      fetch: services.fetch,
      provider,
      url: `${target.provider.baseUrl.replace(/\/+$/, '')}/chat/completions`,
      headers: {
        'content-type': 'application/json',
        accept: streaming ? 'text/event-stream' : 'application/json',
        ...(apiKey ? { authorization: `Bearer ${apiKey}` } : {}),
      },
      body: buildUpstreamChatBody(chatRequest, target.model.model),
      firstByteTimeoutMs: services.settings.upstreamFirstByteTimeoutMs,
    });
  } catch (thrown) {
    const error = toGatewayError(thrown);
    await recordFailure(error.status, error.code);
    throw error;
  }

  const servedBy = { 'x-gateway-model': target.model.slug, 'x-gateway-provider': provider, 'x-generation-id': route.requestId };
  const contentType = upstream.headers.get('content-type') ?? (streaming ? 'text/event-stream' : 'application/json');

  if (!upstream.ok) {
    if (isGatewaySideUpstreamStatus(upstream.status)) {
      const error = await upstreamFailureToGatewayError(upstream, provider, apiKey);
      await recordFailure(upstream.status, error.code);
      throw error;
    }
    // The provider found fault with the client's request: its own words help the client most
    // (scrubbed of the provider key, which some providers echo).
    const body = redactSecrets(await readWholeBody(upstream, provider), apiKey);
    await recordFailure(upstream.status, 'upstream_rejected_request');
    return { status: upstream.status, headers: { 'content-type': contentType, ...servedBy }, body };
  }

  const estimate = chatUsageEstimator(chatRequest.messages);
  const injectCost = config.project.usageInjection;
  if (streaming && upstream.body) {
    const stream = createChatStreamHandler({ clientAskedForUsage: clientAskedForStreamUsage(chatRequest), injectCost, rate, estimate });
    const body = relaySseStream(upstream.body, {
      provider,
      handler: stream.handler,
      errorFrame: openAiStreamErrorFrame,
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
    return { status: 200, headers: { 'content-type': contentType, 'cache-control': 'no-cache', ...servedBy }, body };
  }

  const metered = await meterChatCompletion(await readWholeBody(upstream, provider), { injectCost, priceUsd: usdPricer(rate), estimate });
  await recordUsage(services, metering, {
    ...attempt,
    status: 'completed',
    httpStatus: 200,
    usage: metered.usage,
    ...(metered.finishReason ? { finishReason: metered.finishReason } : {}),
    ...(metered.upstreamId ? { upstreamId: metered.upstreamId } : {}),
  });
  return { status: 200, headers: { 'content-type': contentType, ...servedBy }, body: metered.body };
}

async function readWholeBody(upstream: Response, provider: string): Promise<string> {
  try {
    return await upstream.text();
  } catch (cause) {
    throw new GatewayError('upstream', `Provider "${provider}" broke off the response.`, { code: 'upstream_stream_interrupted', cause });
  }
}
