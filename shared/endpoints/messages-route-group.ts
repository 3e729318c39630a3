import type { GatewayServices } from '../pipeline/gateway-services.ts';
import { createRouteGroup, type ErrorReporter } from '../pipeline/route-group.ts';
import { runGeneration } from '../pipeline/run-generation.ts';
import { renderAnthropicError } from '../protocols/anthropic-messages/anthropic-errors.ts';
import { handleCountTokens } from './count-tokens.ts';
import { messagesEndpoint } from './messages.ts';

/** The messages route group (`/v1/messages*`, its own CloudFront behaviour), errors in Anthropic's format. */
export function createMessagesRouteGroup(services: GatewayServices, reportError?: ErrorReporter) {
  return createRouteGroup(
    {
      routes: {
        '/v1/messages': { POST: (request, groupServices, route) => runGeneration(messagesEndpoint, request, groupServices, route) },
        '/v1/messages/count_tokens': { POST: handleCountTokens },
      },
      renderError: renderAnthropicError,
    },
    services,
    reportError,
  );
}
