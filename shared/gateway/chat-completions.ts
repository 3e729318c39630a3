import { GatewayError } from '../core/errors.ts';
import { providerRequiresApiKey } from '../core/provider-catalog.ts';
import { resolveModelTarget } from '../core/resolve-model.ts';
import type { GatewayRequest, GatewayResponse } from '../http/gateway-http.ts';
import { buildUpstreamChatBody, parseChatCompletionRequest } from '../protocols/openai-chat/chat-request.ts';
import { openAiStreamErrorFrame } from '../protocols/openai-chat/openai-errors.ts';
import { callUpstream } from '../upstream/call-upstream.ts';
import { relayUpstreamStream } from '../upstream/relay-stream.ts';
import { isGatewaySideUpstreamStatus, redactSecrets, upstreamFailureToGatewayError } from '../upstream/upstream-errors.ts';
import { admitRequest, loadProviderApiKey } from './admit-request.ts';
import type { GatewayServices } from './gateway-services.ts';

/**
 * POST /v1/chat/completions, native pass-through to an OpenAI-compatible provider: the client's body
 * minus routing-only fields, the upstream's bytes back as they arrive.
 */
export async function handleChatCompletions(request: GatewayRequest, services: GatewayServices): Promise<GatewayResponse> {
  const { config } = await admitRequest(request, services);
  const chatRequest = parseChatCompletionRequest(request.body);
  const target = resolveModelTarget(chatRequest.model, config);
  if (target.provider.protocol !== 'openai') {
    throw new GatewayError(
      'invalid_request',
      `The model "${target.model.slug}" is served over the ${target.provider.protocol} protocol; /v1/chat/completions serves only OpenAI-compatible providers.`,
      { code: 'model_unsupported_for_endpoint', param: 'model' },
    );
  }

  const apiKey = await loadProviderApiKey(services, config.project.projectId, target.provider.provider);
  if (!apiKey && providerRequiresApiKey(target.provider.provider)) {
    throw new GatewayError('invalid_request', `No routable model: provider "${target.provider.provider}" has no credential.`, {
      code: 'no_routable_model',
      param: 'model',
    });
  }

  const streaming = chatRequest.stream === true;
  const upstream = await callUpstream({
    fetch: services.fetch,
    provider: target.provider.provider,
    url: `${target.provider.baseUrl.replace(/\/+$/, '')}/chat/completions`,
    headers: {
      'content-type': 'application/json',
      accept: streaming ? 'text/event-stream' : 'application/json',
      ...(apiKey ? { authorization: `Bearer ${apiKey}` } : {}),
    },
    body: buildUpstreamChatBody(chatRequest, target.model.model),
    firstByteTimeoutMs: services.settings.upstreamFirstByteTimeoutMs,
  });

  const servedBy = { 'x-gateway-model': target.model.slug, 'x-gateway-provider': target.provider.provider };
  const contentType = upstream.headers.get('content-type') ?? (streaming ? 'text/event-stream' : 'application/json');

  if (!upstream.ok) {
    if (isGatewaySideUpstreamStatus(upstream.status)) {
      throw await upstreamFailureToGatewayError(upstream, target.provider.provider, apiKey);
    }
    // The provider found fault with the client's request: its own words help the client most
    // (scrubbed of the provider key, which some providers echo).
    const body = redactSecrets(await readWholeBody(upstream, target.provider.provider), apiKey);
    return { status: upstream.status, headers: { 'content-type': contentType, ...servedBy }, body };
  }

  if (streaming && upstream.body) {
    return {
      status: 200,
      headers: { 'content-type': contentType, 'cache-control': 'no-cache', ...servedBy },
      body: relayUpstreamStream(upstream.body, { provider: target.provider.provider, errorFrame: openAiStreamErrorFrame }),
    };
  }
  return { status: 200, headers: { 'content-type': contentType, ...servedBy }, body: await readWholeBody(upstream, target.provider.provider) };
}

async function readWholeBody(upstream: Response, provider: string): Promise<string> {
  try {
    return await upstream.text();
  } catch (cause) {
    throw new GatewayError('upstream', `Provider "${provider}" broke off the response.`, {
      code: 'upstream_stream_interrupted',
      cause,
    });
  }
}
