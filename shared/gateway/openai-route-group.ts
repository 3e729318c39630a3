import { GatewayError, toGatewayError } from '../core/errors.ts';
import { chooseRequestId } from '../core/request-id.ts';
import { jsonResponse, type GatewayRequest, type GatewayResponse } from '../http/gateway-http.ts';
import { renderOpenAiError } from '../protocols/openai-chat/openai-errors.ts';
import { handleChatCompletions } from './chat-completions.ts';
import { MAX_REQUEST_BODY_BYTES, type GatewayServices } from './gateway-services.ts';
import { handleGetGeneration } from './get-generation.ts';
import { handleListModels } from './list-models.ts';
import type { RouteContext } from './route-context.ts';

type RouteHandler = (request: GatewayRequest, services: GatewayServices, route: RouteContext) => Promise<GatewayResponse>;

const routes: Record<string, Partial<Record<string, RouteHandler>>> = {
  '/health': { GET: async () => jsonResponse(200, { status: 'ok' }) },
  '/v1/chat/completions': { POST: handleChatCompletions },
  '/v1/models': { GET: handleListModels },
  '/v1/generation': { GET: handleGetGeneration },
};

/** Logs what the client never sees: the cause of an internal or upstream failure. */
export type ErrorReporter = (error: GatewayError, requestId: string) => void;

/**
 * The OpenAI-compatible route group (`/v1/*`): dispatch, request ids, and errors rendered in the
 * OpenAI error format. Every response carries `x-request-id`.
 */
export function createOpenAiRouteGroup(services: GatewayServices, reportError: ErrorReporter = () => {}) {
  return async function serve(request: GatewayRequest): Promise<GatewayResponse> {
    const receivedAt = services.clock.now();
    let requestId: string | undefined;
    try {
      requestId = chooseRequestId(request.headers['x-request-id'], services.randomBytes);
      const response = await dispatch(request, services, { requestId, receivedAt });
      response.headers['x-request-id'] = requestId;
      return response;
    } catch (thrown) {
      requestId ??= chooseRequestId(undefined, services.randomBytes);
      const error = toGatewayError(thrown);
      if (error.status >= 500) reportError(error, requestId);
      return renderOpenAiError(error, { 'x-request-id': requestId });
    }
  };
}

async function dispatch(request: GatewayRequest, services: GatewayServices, route: RouteContext): Promise<GatewayResponse> {
  const path = request.path.length > 1 ? request.path.replace(/\/+$/, '') : request.path;
  const methods = routes[path];
  if (!methods) {
    throw new GatewayError('not_found', `The gateway does not serve ${request.method} ${request.path}.`, {
      code: 'not_found',
    });
  }
  const handler = methods[request.method];
  if (!handler) {
    throw new GatewayError('method_not_allowed', `${request.path} does not accept ${request.method}.`, {
      code: 'method_not_allowed',
      headers: { allow: Object.keys(methods).join(', ') },
    });
  }
  if (Buffer.byteLength(request.body, 'utf8') > MAX_REQUEST_BODY_BYTES) {
    throw new GatewayError('request_too_large', 'The request body is larger than the 6 MB the gateway accepts.', {
      code: 'request_too_large',
    });
  }
  return handler(request, services, route);
}
