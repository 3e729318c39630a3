import { loadOnFirstUse } from '../core/load-on-first-use.ts';
import { jsonResponse } from '../http/gateway-http.ts';
import type { GatewayServices } from '../pipeline/gateway-services.ts';
import { lazyRoutes } from '../pipeline/lazy-routes.ts';
import { createRouteGroup, type ErrorReporter, type RouteHandler, type RouteTable } from '../pipeline/route-group.ts';
import { runGeneration } from '../pipeline/run-generation.ts';
import { isEditorClientRequest } from '../protocols/editor-chat/editor-client-detection.ts';
import { renderOpenAiError } from '../protocols/openai-chat/openai-errors.ts';
import { chatCompletionsEndpoint } from './chat-completions.ts';
import { handleGetCredits } from './get-credits.ts';
import { handleGetGeneration } from './get-generation.ts';
import { handleGetKey } from './get-key.ts';
import { MODEL_API_METHODS } from './model-api-methods.ts';
import { MODEL_LIST_METHODS } from './model-list-methods.ts';
import { RESPONSES_METHODS } from './responses-methods.ts';

export type { ErrorReporter } from '../pipeline/route-group.ts';

/** The editor's endpoint, loaded on first use: few clients of this route group need it (the editor route group bundles it). */
const editorEndpoint = loadOnFirstUse(() => import('./editor-chat-completions.ts'));

/**
 * The editor client on the legacy base URL (`/v1`) gets the editor profile too, once detected (by its
 * User-Agent or its body's shape); every other client gets chat completions as OpenAI serves them.
 */
const completeChat: RouteHandler = async (request, services, route) => {
  if (!isEditorClientRequest(request)) return runGeneration(chatCompletionsEndpoint, request, services, route);
  const { editorChatCompletionsEndpoint } = await editorEndpoint();
  return runGeneration(editorChatCompletionsEndpoint, request, services, route);
};

/** The routes of the OpenAI-compatible route group (`/v1/*`, CloudFront's default behaviour). */
export const openAiRoutes: RouteTable = {
  '/health': { GET: async () => jsonResponse(200, { status: 'ok' }) },
  '/v1/chat/completions': { POST: completeChat },
  // The Responses API and its protocol, loaded on first use: a cold start for chat does without them.
  ...lazyRoutes(RESPONSES_METHODS, () => import('./responses-routes.ts').then((module) => module.responsesRoutes)),
  // The list and one model (whose id may itself hold slashes: `/v1/models/openai/gpt-4o-mini`), loaded on first use.
  ...lazyRoutes(MODEL_LIST_METHODS, () => import('./model-list-routes.ts').then((module) => module.modelListRoutes)),
  '/v1/generation': { GET: handleGetGeneration },
  // OpenRouter's key and credit checks; `/v1/auth/key` is the key's older path, which clients still call.
  '/v1/key': { GET: handleGetKey },
  '/v1/auth/key': { GET: handleGetKey },
  '/v1/credits': { GET: handleGetCredits },
  // Completions, embeddings, images, audio, moderations, rerank, videos and the pass-through, loaded on first use.
  ...lazyRoutes(MODEL_API_METHODS, () => import('./model-api-routes.ts').then((module) => module.modelApiRoutes)),
};

/** The OpenAI-compatible route group, errors in OpenAI's format. */
export function createOpenAiRouteGroup(services: GatewayServices, reportError?: ErrorReporter) {
  return createRouteGroup({ routes: openAiRoutes, renderError: renderOpenAiError }, services, reportError);
}
