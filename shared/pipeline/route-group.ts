import { baseUrlHint } from '../http/base-url-hint.ts';
import { allowedMethods, CORS_HEADERS, optionsResponse } from '../http/cors.ts';
import { GatewayError, toGatewayError } from '../core/errors.ts';
import { chooseRequestId } from '../core/request-id.ts';
import { discardAnswerStream, type GatewayRequest, type GatewayResponse } from '../http/gateway-http.ts';
import { lenientRequestPath, lookalikeOfRouteError, normaliseRequestPath } from '../http/request-path.ts';
import { MAX_REQUEST_BODY_BYTES, type GatewayServices } from './gateway-services.ts';
import type { RouteContext } from './route-context.ts';

export type RouteHandler = (request: GatewayRequest, services: GatewayServices, route: RouteContext) => Promise<GatewayResponse>;

/** Path → method → handler. A path ending in `/*` serves every path below it (e.g. `/v1/models/*`). */
export type RouteTable = Record<string, Partial<Record<string, RouteHandler>>>;

/** The routes of a path: its own, else those of the longest `/*` prefix route above it. */
function routesFor(routes: RouteTable, path: string): Partial<Record<string, RouteHandler>> | undefined {
  const exact = routes[path];
  if (exact) return exact;
  let best: string | undefined;
  for (const pattern of Object.keys(routes)) {
    if (pattern.endsWith('/*') && path.startsWith(pattern.slice(0, -1)) && path.length > pattern.length - 1 && (!best || pattern.length > best.length)) best = pattern;
  }
  return best === undefined ? undefined : routes[best];
}

/** Logs what the client never sees: the cause of an internal or upstream failure. */
export type ErrorReporter = (error: GatewayError, requestId: string) => void;

export interface RouteGroupDefinition {
  routes: RouteTable;
  /**
   * Renders a gateway error in the group's protocol (OpenAI's error body, Anthropic's, …); `requestId` for
   * a protocol whose errors name the request (Anthropic's `request_id`).
   */
  renderError: (error: GatewayError, headers: Record<string, string>, requestId?: string) => GatewayResponse;
  /**
   * What the 404 of a path no route serves says about the client's base URL, for a group whose clients
   * take a base URL of their own (the editor's); the gateway-wide hint (base-url-hint.ts) unless given.
   */
  baseUrlHint?: (path: string) => string;
  /**
   * A header of the group's protocol that names the request on every answer, as its SDK reads it
   * (Anthropic's `request-id`, the SDK's `_request_id` and `requestID`): set to the gateway's request id.
   */
  requestIdHeader?: string;
  /**
   * The answer with the request id in its body where the group's protocol names it there (Anthropic's
   * `request_id` in an error body a translation wrote, which has none of its own).
   */
  withRequestIdInBody?: (response: GatewayResponse, requestId: string) => GatewayResponse;
}

/**
 * A route group (one Lambda function behind one CloudFront behaviour): dispatch, request ids, the body
 * size limit, and every error rendered in the group's own protocol. Every response carries `x-request-id`
 * and the headers that let a browser client read it (cors.ts); `OPTIONS` (a browser's preflight) is
 * answered here, before any key is asked for.
 * The path is normalised here, once, for the Lambda and the local host alike: the route is chosen by it,
 * and every handler reads it.
 */
export function createRouteGroup(definition: RouteGroupDefinition, services: GatewayServices, reportError: ErrorReporter = () => {}) {
  return async function serve(received: GatewayRequest): Promise<GatewayResponse> {
    const request = { ...received, path: normaliseRequestPath(received.path) };
    const receivedAt = services.clock.now();
    const deferred = services.settings.handsOverUsageAfterAnswer ? createDeferredWork() : undefined;
    const withDeferred = (response: GatewayResponse): GatewayResponse => (deferred ? { ...response, afterAnswer: deferred.run } : response);
    let requestId: string | undefined;
    try {
      requestId = chooseRequestId(request.headers['x-request-id'], services.randomBytes);
      const named = requestId;
      const route: RouteContext = { requestId, receivedAt, reportError: (error) => reportError(error, named), ...(deferred ? { afterAnswer: deferred.add } : {}) };
      const dispatched = await dispatch(definition, request, services, route);
      const response = definition.withRequestIdInBody ? definition.withRequestIdInBody(dispatched, requestId) : dispatched;
      Object.assign(response.headers, CORS_HEADERS);
      response.headers['x-request-id'] = requestId;
      if (definition.requestIdHeader) response.headers[definition.requestIdHeader] = requestId;
      return withDeferred(response);
    } catch (thrown) {
      requestId ??= chooseRequestId(undefined, services.randomBytes);
      const error = toGatewayError(thrown);
      if (error.status >= 500) reportError(error, requestId);
      return withDeferred(definition.renderError(error, { ...CORS_HEADERS, 'x-request-id': requestId }, requestId));
    }
  };
}

async function dispatch(definition: RouteGroupDefinition, request: GatewayRequest, services: GatewayServices, route: RouteContext): Promise<GatewayResponse> {
  const methods = routesFor(definition.routes, request.path);
  refuseLookalikeOfRoute(definition.routes, request.path, methods);
  if (!methods) {
    const hint = (definition.baseUrlHint ?? baseUrlHint)(request.path);
    throw new GatewayError('not_found', `The gateway does not serve ${request.method} ${request.path}.${hint}`, { code: 'not_found' });
  }
  if (request.method === 'OPTIONS') return optionsResponse(request, Object.keys(methods));
  // HEAD is GET without a body (HTTP's rule), for every route that answers GET.
  const head = request.method === 'HEAD' && methods.GET !== undefined;
  const handler = head ? methods.GET : methods[request.method];
  if (!handler) {
    throw new GatewayError('method_not_allowed', `${request.path} does not accept ${request.method}.`, {
      code: 'method_not_allowed',
      headers: { allow: allowedMethods(Object.keys(methods)) },
    });
  }
  if (request.body.byteLength > MAX_REQUEST_BODY_BYTES) {
    throw new GatewayError('request_too_large', 'The request body is larger than the 6 MB the gateway accepts.', { code: 'request_too_large' });
  }
  const response = await handler(head ? { ...request, method: 'GET' } : request, services, route);
  if (!head) return response;
  // A body relayed as it comes is let go at once (settled as cancelled), not left to its time limits.
  if (typeof response.body !== 'string') await discardAnswerStream(response.body);
  return { ...response, body: '' };
}

/**
 * A path that reads as another of the group's routes once letter case, escapes and `;` parameters are set
 * aside (`/v1/Chat/Completions` beside `/v1/chat/completions`) would otherwise fall to a broader route, pass-
 * through: an upstream that reads paths leniently would serve it as the route it names, past that route's
 * access policy and meter. Only a path no route serves exactly is looked at, so the routes' own paths cost nothing.
 */
function refuseLookalikeOfRoute(routes: RouteTable, path: string, methods: Partial<Record<string, RouteHandler>> | undefined): void {
  if (routes[path]) return;
  const lenient = lenientRequestPath(path);
  if (lenient === path || routesFor(routes, lenient) === methods) return;
  throw lookalikeOfRouteError(path);
}

/** Work a request defers until its answer has ended; work added while it runs is run too. */
function createDeferredWork() {
  const pending: Array<() => Promise<void>> = [];
  return {
    add: (work: () => Promise<void>) => void pending.push(work),
    async run(): Promise<void> {
      while (pending.length > 0) {
        const work = pending.splice(0);
        await Promise.allSettled(work.map((task) => task()));
      }
    },
  };
}
