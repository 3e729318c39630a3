import { asJsonObject } from '../core/json-object.ts';
import { jsonBody, type GenerationEndpoint } from '../pipeline/generation-endpoint.ts';
import { thinkingBudgetBound } from '../protocols/anthropic-messages/reasoning-effort-budget.ts';
import { openAiEndUser } from '../protocols/end-user-fields.ts';
import { openAiResponsesProtocol } from '../protocols/openai-responses/openai-responses-protocol.ts';
import { parseResponsesRequest, responsesPromptText, type ResponsesRequest } from '../protocols/openai-responses/responses-request.ts';
import { routeToStoredResponse } from './route-to-stored-response.ts';
import { responsesToolCallsLimit, webSearchesBound } from '../protocols/web-search-tools.ts';

/**
 * POST /v1/responses, OpenAI's Responses protocol: native to providers that serve `/responses` (the
 * client's body minus routing-only fields, the upstream's bytes back), translated for the others;
 * `previous_response_id` goes to the provider that stored that response.
 */
export const responsesEndpoint: GenerationEndpoint<ResponsesRequest> = {
  name: 'responses',
  clientProtocol: openAiResponsesProtocol,
  modelKinds: ['chat'],
  parse: jsonBody(parseResponsesRequest),
  endUser: openAiEndUser,
  promptText: responsesPromptText,
  maxOutputTokens: (request) => (typeof request.max_output_tokens === 'number' && request.max_output_tokens > 0 ? request.max_output_tokens : undefined),
  withOutputCap: (body, cap) => ({ ...body, max_output_tokens: cap }),
  thinkingBudget: (request) => thinkingBudgetBound(undefined, asJsonObject(request.reasoning)),
  refineRouting: routeToStoredResponse,
  // OpenAI bills its web search tool per call: a prepaid balance reserves the most it can run.
  unitsBound: (request) => webSearchesBound(request.tools, request.max_tool_calls) ?? {},
  // OpenAI's web search tool has no limit of its own: the request's limit on hosted tool calls holds it.
  withWebSearchesLimited: (body) => {
    const limit = responsesToolCallsLimit(body.tools, body.max_tool_calls);
    return limit === undefined ? body : { ...body, max_tool_calls: limit };
  },
};
