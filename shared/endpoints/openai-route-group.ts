import { jsonResponse } from '../http/gateway-http.ts';
import type { GatewayServices } from '../pipeline/gateway-services.ts';
import { createRouteGroup, type ErrorReporter, type RouteTable } from '../pipeline/route-group.ts';
import { runGeneration } from '../pipeline/run-generation.ts';
import { renderOpenAiError } from '../protocols/openai-chat/openai-errors.ts';
import { speechEndpoint, transcriptionsEndpoint, translationsEndpoint } from './audio.ts';
import { chatCompletionsEndpoint } from './chat-completions.ts';
import { completionsEndpoint } from './completions.ts';
import { embeddingsEndpoint } from './embeddings.ts';
import { imageEditsEndpoint, imageGenerationsEndpoint } from './images.ts';
import { moderationsEndpoint } from './moderations.ts';
import { handlePassThrough } from './pass-through.ts';
import { rerankEndpoint } from './rerank.ts';
import { handleGetGeneration } from './get-generation.ts';
import { handleGetModel } from './get-model.ts';
import { handleListModels } from './list-models.ts';
import { responsesEndpoint } from './responses.ts';
import { handleStoredResponse } from './stored-responses.ts';

export type { ErrorReporter } from '../pipeline/route-group.ts';

/** The routes of the OpenAI-compatible route group (`/v1/*`, CloudFront's default behaviour). */
export const openAiRoutes: RouteTable = {
  '/health': { GET: async () => jsonResponse(200, { status: 'ok' }) },
  '/v1/chat/completions': { POST: (request, services, route) => runGeneration(chatCompletionsEndpoint, request, services, route) },
  '/v1/responses': { POST: (request, services, route) => runGeneration(responsesEndpoint, request, services, route) },
  '/v1/completions': { POST: (request, services, route) => runGeneration(completionsEndpoint, request, services, route) },
  '/v1/embeddings': { POST: (request, services, route) => runGeneration(embeddingsEndpoint, request, services, route) },
  '/v1/audio/speech': { POST: (request, services, route) => runGeneration(speechEndpoint, request, services, route) },
  '/v1/audio/transcriptions': { POST: (request, services, route) => runGeneration(transcriptionsEndpoint, request, services, route) },
  '/v1/audio/translations': { POST: (request, services, route) => runGeneration(translationsEndpoint, request, services, route) },
  '/v1/images/generations': { POST: (request, services, route) => runGeneration(imageGenerationsEndpoint, request, services, route) },
  '/v1/images/edits': { POST: (request, services, route) => runGeneration(imageEditsEndpoint, request, services, route) },
  '/v1/rerank': { POST: (request, services, route) => runGeneration(rerankEndpoint, request, services, route) },
  '/v1/moderations': { POST: (request, services, route) => runGeneration(moderationsEndpoint, request, services, route) },
  // A stored response, its cancellation and its input items: `/v1/responses/{id}[/cancel|/input_items]`.
  '/v1/responses/*': { GET: handleStoredResponse, DELETE: handleStoredResponse, POST: handleStoredResponse },
  '/v1/models': { GET: handleListModels },
  // The model id may itself hold slashes (`/v1/models/openai/gpt-4o-mini`).
  '/v1/models/*': { GET: handleGetModel },
  '/v1/generation': { GET: handleGetGeneration },
  // Every other `/v1/*` route, for projects that allow pass-through (404 pass_through_off otherwise).
  '/v1/*': { GET: handlePassThrough, POST: handlePassThrough, PUT: handlePassThrough, PATCH: handlePassThrough, DELETE: handlePassThrough },
};

/** The OpenAI-compatible route group, errors in OpenAI's format. */
export function createOpenAiRouteGroup(services: GatewayServices, reportError?: ErrorReporter) {
  return createRouteGroup({ routes: openAiRoutes, renderError: renderOpenAiError }, services, reportError);
}
