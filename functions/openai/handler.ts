import { loadRuntimeConfig, type RuntimeConfig } from '../../shared/config/runtime-config.ts';
import { createOpenAiRouteGroup } from '../../shared/endpoints/openai-route-group.ts';
import { onFirstCall, streamingHandler } from '../../shared/lambda/lambda-handlers.ts';
import { renderOpenAiError } from '../../shared/protocols/openai-chat/openai-errors.ts';
import type { RouteGroupDependencies } from '../../shared/wiring/create-gateway-services.ts';
import { createRouteGroupFunction, type RouteGroupFunction } from '../../shared/wiring/route-group-function.ts';

/** The OpenAI-compatible route group (`/v1/*`), served by a function URL in response-streaming mode. */
const routeGroup: RouteGroupFunction = { serviceName: 'gateway-openai', createRouteGroup: createOpenAiRouteGroup, renderError: renderOpenAiError };

/** The handler for a configuration and what a host injects (the local host, tests). */
export function createHandler(config: RuntimeConfig, dependencies: RouteGroupDependencies = {}) {
  return streamingHandler(createRouteGroupFunction(config, routeGroup, dependencies));
}

/** Lambda's entry point: built from the environment on the first invocation. */
export const handler = streamingHandler(onFirstCall(() => createRouteGroupFunction(loadRuntimeConfig(process.env), routeGroup)));
