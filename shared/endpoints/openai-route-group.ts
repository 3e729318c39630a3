import { jsonResponse } from '../http/gateway-http.ts';
import { renderOpenAiError } from '../protocols/openai-chat/openai-errors.ts';
import { handleChatCompletions } from './chat-completions.ts';
import type { GatewayServices } from '../pipeline/gateway-services.ts';
import { handleGetGeneration } from './get-generation.ts';
import { handleGetModel, SINGLE_MODEL_PATH_PREFIX } from './get-model.ts';
import { handleListModels } from './list-models.ts';
import { createRouteGroup, type ErrorReporter, type RouteTable } from '../pipeline/route-group.ts';

export type { ErrorReporter } from '../pipeline/route-group.ts';

/**
 * `GET /v1/models/{id}`, whose id may itself hold slashes. The route table matches whole paths, so any
 * path under /v1/models/ is looked up as this one route; the handler reads the id from the path.
 */
function withSingleModelRoute(routes: RouteTable): RouteTable {
  const singleModel = { GET: handleGetModel };
  return new Proxy(routes, {
    get: (table, path) => (typeof path === 'string' && path.startsWith(SINGLE_MODEL_PATH_PREFIX) ? singleModel : Reflect.get(table, path)),
  });
}

/** The OpenAI-compatible route group (`/v1/*`, CloudFront's default behaviour), errors in OpenAI's format. */
export function createOpenAiRouteGroup(services: GatewayServices, reportError?: ErrorReporter) {
  return createRouteGroup(
    {
      routes: withSingleModelRoute({
        '/health': { GET: async () => jsonResponse(200, { status: 'ok' }) },
        '/v1/chat/completions': { POST: handleChatCompletions },
        '/v1/models': { GET: handleListModels },
        '/v1/generation': { GET: handleGetGeneration },
      }),
      renderError: renderOpenAiError,
    },
    services,
    reportError,
  );
}
