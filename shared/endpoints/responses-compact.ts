import { GatewayError } from '../core/errors.ts';
import { jsonBody, type GenerationEndpoint } from '../pipeline/generation-endpoint.ts';
import { apiBridge } from '../protocols/api-bridge.ts';
import type { RequestBodyJson } from '../protocols/parse-model-request.ts';
import { openAiResponsesProtocol } from '../protocols/openai-responses/openai-responses-protocol.ts';
import { responsesCompactApi } from '../protocols/openai-responses/responses-compact-api.ts';
import { parseResponsesRequest, responsesPromptText, type ResponsesRequest } from '../protocols/openai-responses/responses-request.ts';
import { routeToStoredResponse } from './route-to-stored-response.ts';

/**
 * POST /v1/responses/compact (Codex's remote compaction with OpenAI models): a generation of the one
 * pipeline, reaching only providers that serve the Responses API natively (failing over among them), and
 * metered by the usage the provider reports; `previous_response_id` goes to the provider that stored it.
 */
export const responsesCompactEndpoint: GenerationEndpoint<ResponsesRequest> = {
  name: 'responses.compact',
  clientProtocol: openAiResponsesProtocol,
  modelKinds: ['chat'],
  parse: jsonBody(parseCompactRequest),
  promptText: responsesPromptText,
  // Compaction takes no output cap: the balance reserves the model's limit.
  maxOutputTokens: () => undefined,
  refineRouting: routeToStoredResponse,
  upstream: {
    protocols: ['openai-responses'],
    onlyThoseBecause:
      'Compaction is served natively only, by a provider that serves the Responses API (`openai-responses` among its protocols): its output is encrypted content only the provider that made it can read, which no translation can make. Compact with such a model, or keep the whole conversation.',
    bridgeTo: () => apiBridge(responsesCompactApi),
  },
};

/** A compaction body is a response's body, answered whole: `stream: true` asks for what does not exist. */
function parseCompactRequest(body: RequestBodyJson): ResponsesRequest {
  const request = parseResponsesRequest(body);
  if (request.stream === true) {
    throw new GatewayError('invalid_request', 'A compaction is answered whole, never streamed: send the request without "stream".', { code: 'stream_not_supported', param: 'stream' });
  }
  return request;
}
