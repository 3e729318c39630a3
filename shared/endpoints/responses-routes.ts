import type { RouteTable } from '../pipeline/route-group.ts';
import { runGeneration } from '../pipeline/run-generation.ts';
import { responsesEndpoint } from './responses.ts';
import { responsesCompactEndpoint } from './responses-compact.ts';
import { handleResponsesInputTokens } from './responses-input-tokens.ts';
import { handleStoredResponse } from './stored-responses.ts';

/** OpenAI's Responses API: a response's creation, its input token count, a compaction, and a stored response, its cancellation and its input items. */
export const responsesRoutes: RouteTable = {
  '/v1/responses': { POST: (request, services, route) => runGeneration(responsesEndpoint, request, services, route) },
  '/v1/responses/input_tokens': { POST: handleResponsesInputTokens },
  '/v1/responses/compact': { POST: (request, services, route) => runGeneration(responsesCompactEndpoint, request, services, route) },
  // `/v1/responses/{id}[/cancel|/input_items]`.
  '/v1/responses/*': { GET: handleStoredResponse, DELETE: handleStoredResponse, POST: handleStoredResponse },
};
