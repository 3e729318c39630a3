import type { GatewayRequest, GatewayResponse } from '../http/gateway-http.ts';
import type { GatewayServices } from '../pipeline/gateway-services.ts';
import type { RouteContext } from '../pipeline/route-context.ts';
import { openAiResponsesProtocol } from '../protocols/openai-responses/openai-responses-protocol.ts';
import { countResponsesInputTokensEstimate } from '../protocols/openai-responses/responses-input-tokens.ts';
import { buildUpstreamResponsesBody, parseResponsesRequest, type ResponsesRequest } from '../protocols/openai-responses/responses-request.ts';
import { relayUpstreamRefusal } from '../protocols/upstream-refusal.ts';
import { routeToStoredResponse } from './route-to-stored-response.ts';
import { handleTokenCount, type TokenCountEndpoint } from './token-count.ts';

/**
 * The Responses API's input token count: asked of providers that serve the Responses API (the body as
 * for a response, minus routing fields), estimated for any other model; a previous response's provider
 * is asked, as a response continuing it would be.
 */
const responsesInputTokens: TokenCountEndpoint<ResponsesRequest> = {
  name: 'responses.input_tokens',
  rateLabel: 'input_tokens',
  parse: parseResponsesRequest,
  refineRouting: routeToStoredResponse,
  countingProtocol: 'openai-responses',
  upstreamRequest: (body, upstreamModel) => ({
    path: '/responses/input_tokens',
    headers: { 'content-type': 'application/json', accept: 'application/json' },
    body: buildUpstreamResponsesBody(body, upstreamModel),
  }),
  estimate: countResponsesInputTokensEstimate,
  relayUpstreamError: (answer) => relayUpstreamRefusal(openAiResponsesProtocol, answer),
};

/** POST /v1/responses/input_tokens (handleTokenCount). */
export function handleResponsesInputTokens(request: GatewayRequest, services: GatewayServices, route: RouteContext): Promise<GatewayResponse> {
  return handleTokenCount(responsesInputTokens, request, services, route);
}
