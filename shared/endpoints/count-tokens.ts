import type { GatewayRequest, GatewayResponse } from '../http/gateway-http.ts';
import type { GatewayServices } from '../pipeline/gateway-services.ts';
import type { RouteContext } from '../pipeline/route-context.ts';
import { anthropicMessagesProtocol, anthropicProtocolHeaders } from '../protocols/anthropic-messages/anthropic-messages-protocol.ts';
import { countMessagesTokensEstimate } from '../protocols/anthropic-messages/count-tokens.ts';
import { buildUpstreamMessagesBody, parseMessagesRequest, type MessagesRequest } from '../protocols/anthropic-messages/messages-request.ts';
import { relayUpstreamRefusal } from '../protocols/upstream-refusal.ts';
import { handleTokenCount, type TokenCountEndpoint } from './token-count.ts';

/** Anthropic's count_tokens: asked of providers that speak Anthropic's protocol, estimated for any other model. */
const messagesTokenCount: TokenCountEndpoint<MessagesRequest> = {
  name: 'messages.count_tokens',
  rateLabel: 'count_tokens',
  parse: parseMessagesRequest,
  countingProtocol: 'anthropic-messages',
  // count_tokens takes neither an output cap nor streaming.
  upstreamRequest: (body, upstreamModel, clientHeaders) => ({
    path: '/messages/count_tokens',
    headers: anthropicProtocolHeaders(clientHeaders, false),
    body: buildUpstreamMessagesBody(body, upstreamModel, ['max_tokens', 'stream']),
  }),
  estimate: countMessagesTokensEstimate,
  relayUpstreamError: (answer) => relayUpstreamRefusal(anthropicMessagesProtocol, answer),
};

/** POST /v1/messages/count_tokens (handleTokenCount). */
export function handleCountTokens(request: GatewayRequest, services: GatewayServices, route: RouteContext): Promise<GatewayResponse> {
  return handleTokenCount(messagesTokenCount, request, services, route);
}
