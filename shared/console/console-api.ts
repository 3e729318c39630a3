import { runAdminCommand } from '../admin/run-admin-command.ts';
import { GatewayError, toGatewayError } from '../core/errors.ts';
import { parseJsonObject } from '../core/json-object.ts';
import { exceedsJsonDepth, MAX_JSON_DEPTH } from '../core/json-depth.ts';
import { bodyText, type GatewayRequest, type GatewayResponse } from '../http/gateway-http.ts';
import { requireRole } from './console-access.ts';
import { consoleError, consoleJson } from './console-http.ts';
import { bearerToken, type ConsoleIdentity } from './console-identity.ts';
import type { ConsoleApiDeps, ConsoleRoute } from './console-route.ts';
import { matchRoute } from './console-router.ts';
import { keyRoutes } from './key-routes.ts';
import { projectRoutes } from './project-routes.ts';
import { usageRoutes } from './usage-routes.ts';

/** Where the console's API lives, on the local host and behind CloudFront alike. */
export const CONSOLE_API_PREFIX = '/console/api';
const routes: readonly ConsoleRoute[] = [...projectRoutes, ...keyRoutes, ...usageRoutes];

/**
 * The console's API: who is asking (401 before anything else, for every path), what their role in the
 * project lets them do (403), then the admin command that does it, under their name in the audit trail.
 */
export function createConsoleApi(deps: ConsoleApiDeps, reportError: (error: GatewayError) => void = () => {}) {
  return async function serveConsoleApi(request: GatewayRequest): Promise<GatewayResponse> {
    try {
      return await serve(deps, request);
    } catch (thrown) {
      const error = toGatewayError(thrown);
      if (error.status >= 500) reportError(error);
      return consoleError(error);
    }
  };
}

async function serve(deps: ConsoleApiDeps, request: GatewayRequest): Promise<GatewayResponse> {
  const path = request.path.startsWith(`${CONSOLE_API_PREFIX}/`) ? request.path.slice(CONSOLE_API_PREFIX.length) : '';
  if (path === '/session' && deps.signInCodes) return serveSession(deps, request);
  const identity = await deps.authenticator.identify(request.headers.authorization);
  for (const route of routes) {
    const params = matchRoute(route, request.method, path);
    if (!params) continue;
    const role = route.access === 'signed-in' ? undefined : await requireRole(deps.admin, identity, params.projectId ?? '', route.access);
    const body = readBody(request);
    return route.handle({ deps, request, identity, params, body, role, run: (event) => runAs(deps, identity, event) });
  }
  throw new GatewayError('not_found', `No console API route ${request.method} ${path || request.path}.`, { code: 'not_found' });
}

/** Local sign-in: POST exchanges a one-time code for a session; DELETE ends the session. */
function serveSession(deps: ConsoleApiDeps, request: GatewayRequest): GatewayResponse {
  const exchange = deps.signInCodes;
  if (!exchange) throw new GatewayError('not_found', 'No such route.', { code: 'not_found' });
  if (request.method === 'DELETE') {
    exchange.signOut(bearerToken(request.headers.authorization));
    return consoleJson(200, { signed_out: true });
  }
  if (request.method !== 'POST') throw new GatewayError('method_not_allowed', 'Use POST to sign in, DELETE to sign out.', { code: 'method_not_allowed' });
  const code = readBody(request).code;
  if (typeof code !== 'string' || code === '') throw new GatewayError('invalid_request', 'Send {"code": "<the code of the sign-in link>"}.', { code: 'missing_code' });
  const session = exchange.redeem(code);
  return consoleJson(200, { token: session.token, member: session.member, expires_at: new Date(session.expiresAt).toISOString() });
}

/** A JSON object for writes (sent as application/json, which a cross-site form cannot do); empty for reads. */
function readBody(request: GatewayRequest): Record<string, unknown> {
  if (request.method === 'GET' || request.method === 'HEAD') return {};
  if (request.body.length === 0) return {};
  if (!/^application\/json\s*(;|$)/i.test(request.headers['content-type'] ?? '')) {
    throw new GatewayError('invalid_request', 'Send the body as application/json.', { code: 'unsupported_media_type', status: 415 });
  }
  const body = parseJsonObject(bodyText(request));
  if (!body) throw new GatewayError('invalid_request', 'The body must be a JSON object.', { code: 'invalid_json' });
  if (exceedsJsonDepth(body)) {
    throw new GatewayError('invalid_request', `The body nests deeper than the ${MAX_JSON_DEPTH} levels the gateway accepts.`, { code: 'json_too_deep' });
  }
  return body;
}

async function runAs<T>(deps: ConsoleApiDeps, identity: ConsoleIdentity, event: Record<string, unknown>): Promise<T> {
  const answer = await runAdminCommand(deps.admin, event, { kind: 'console', member: identity.member });
  if (answer.ok) return answer.result as T;
  const { status, code, message } = answer.error;
  // The admin commands' refusals are meant for people: show them, except failures of the service itself.
  const kind = status >= 500 && code !== 'audit_failed' ? 'internal' : status === 404 ? 'not_found' : 'invalid_request';
  throw new GatewayError(kind, message, { code, status });
}
