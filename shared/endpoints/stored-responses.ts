import { GatewayError } from '../core/errors.ts';
import type { StoredResponseOwner } from '../core/ports.ts';
import { ZERO_USAGE } from '../core/token-usage.ts';
import type { GatewayRequest, GatewayResponse } from '../http/gateway-http.ts';
import { decodePathId } from '../http/path-id.ts';
import { admitRequest, readStore } from '../pipeline/admit-request.ts';
import type { GatewayServices } from '../pipeline/gateway-services.ts';
import type { RouteContext } from '../pipeline/route-context.ts';
import { createResponsesPassThrough } from '../protocols/openai-responses/responses-pass-through.ts';
import { bodyAsNodeStream, hasBody } from '../transport/incoming-response.ts';
import { relayStream, type StreamEventHandler } from '../transport/stream-relay.ts';
import { callOwningProvider } from './call-owning-provider.ts';

export const STORED_RESPONSES_PREFIX = '/v1/responses/';

/** The operations on a stored response, by method and what follows its id. */
const OPERATIONS: Record<string, { method: string; suffix: string }> = {
  'GET ': { method: 'GET', suffix: '' },
  'DELETE ': { method: 'DELETE', suffix: '' },
  'POST cancel': { method: 'POST', suffix: '/cancel' },
  'GET input_items': { method: 'GET', suffix: '/input_items' },
};

/**
 * GET and DELETE /v1/responses/{id}, POST /v1/responses/{id}/cancel and GET /v1/responses/{id}/input_items:
 * passed through to the provider that made the response (its query string too, e.g. `?stream=true` or
 * `?limit=`), and only for the project that made it. The gateway knows a response once the usage record of
 * the request that made it is written (seconds after it ended); until then, and for another project's
 * responses or translated answers (stored nowhere), it answers 404. Nothing is generated: not metered.
 * A response streamed back (`?stream=true`) is relayed within a generation stream's time limits.
 */
export async function handleStoredResponse(request: GatewayRequest, services: GatewayServices, route: RouteContext): Promise<GatewayResponse> {
  // The key first: a client without one learns nothing of which paths exist.
  const admitted = await admitRequest(request, services, 'responses.stored');
  const [encodedId = '', operationName = '', ...rest] = request.path.slice(STORED_RESPONSES_PREFIX.length).replace(/\/+$/, '').split('/');
  const operation = rest.length === 0 ? OPERATIONS[`${request.method} ${operationName}`] : undefined;
  if (!operation) throw new GatewayError('not_found', `The gateway does not serve ${request.method} ${request.path}.`, { code: 'not_found' });
  const responseId = decodePathId(encodedId, { noun: 'response', code: 'invalid_response_id', param: 'response_id' });
  const owner = await findOwner(services, responseId);
  const projectId = admitted.config.project.projectId;
  const provider = owner?.projectId === projectId ? admitted.config.providers.get(owner.provider) : undefined;
  if (!owner || !provider) {
    throw new GatewayError(
      'not_found',
      `Response with id "${responseId}" not found. The gateway serves the stored responses of this project's requests once their usage is recorded (seconds after they end); answers it translated from another protocol are stored nowhere.`,
      { code: 'response_not_found', param: 'response_id' },
    );
  }
  const query = request.query.toString();
  const called = await callOwningProvider(services, admitted, route, provider, {
    method: operation.method,
    path: `/responses/${encodeURIComponent(responseId)}${operation.suffix}${query ? `?${query}` : ''}`,
    accept: request.query.get('stream') === 'true' ? 'text/event-stream' : 'application/json',
  });
  if (called.refusal) return called.refusal;
  const { response } = called;
  const contentType = response.headers.get('content-type') ?? 'application/json';
  const headers = { 'content-type': contentType, 'x-gateway-provider': provider.provider };
  if (!contentType.startsWith('text/event-stream') || !hasBody(response)) return { status: response.status, headers, body: await called.readText() };
  const events = replayedEvents();
  const body = relayStream(bodyAsNodeStream(response), { ...called.relay(), handler: events, errorFrame: events.fail, heartbeatIntervalMs: services.settings.heartbeatIntervalMs });
  return { status: response.status, headers, body };
}

/**
 * A stored response's events as the provider sends them; a stream the gateway ends itself (a time limit
 * passed) ends as OpenAI ends a failed one, numbered after the last event the client saw.
 */
function replayedEvents(): StreamEventHandler & { fail(error: GatewayError): string } {
  // Nothing is metered here, so no cost is shown: the usage functions are never asked.
  const passThrough = createResponsesPassThrough({ injectCost: false, priceUsd: () => '0', finalUsage: async () => ZERO_USAGE });
  return { onEvent: (event) => passThrough.push(event, []), onEnd: () => passThrough.end(), fail: (error) => passThrough.fail(error) };
}

function findOwner(services: GatewayServices, responseId: string): Promise<StoredResponseOwner | undefined> {
  return readStore(() => services.generations.findStoredResponse(responseId));
}
