import type { GatewayServices } from '../pipeline/gateway-services.ts';
import { createRouteGroup, type ErrorReporter, type RouteTable } from '../pipeline/route-group.ts';
import { runGeneration } from '../pipeline/run-generation.ts';
import { renderAnthropicError, withRequestIdInErrorBody } from '../protocols/anthropic-messages/anthropic-errors.ts';
import { handleCountTokens } from './count-tokens.ts';
import { messagesEndpoint } from './messages.ts';

/** The routes of the messages route group (`/v1/messages*`, its own CloudFront behaviour). */
export const messagesRoutes: RouteTable = {
  '/v1/messages': { POST: (request, services, route) => runGeneration(messagesEndpoint, request, services, route) },
  '/v1/messages/count_tokens': { POST: handleCountTokens },
};

/**
 * The messages route group, errors in Anthropic's format. Every answer names the gateway's request id in
 * `request-id` too, as Anthropic's do, so the SDK's `_request_id` (and an upstream error's `requestID`) is
 * the id `/v1/generation` looks up.
 */
export function createMessagesRouteGroup(services: GatewayServices, reportError?: ErrorReporter) {
  return createRouteGroup({ routes: messagesRoutes, renderError: renderAnthropicError, requestIdHeader: 'request-id', withRequestIdInBody: withRequestIdInErrorBody }, services, reportError);
}
