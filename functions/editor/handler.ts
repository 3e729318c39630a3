import { loadRuntimeConfig, type RuntimeConfig } from '../../shared/config/runtime-config.ts';
import { createEditorRouteGroup } from '../../shared/endpoints/editor-route-group.ts';
import { onFirstCall, streamingHandler } from '../../shared/lambda/lambda-handlers.ts';
import { renderEditorError } from '../../shared/protocols/editor-chat/editor-errors.ts';
import type { RouteGroupDependencies } from '../../shared/wiring/create-gateway-services.ts';
import { createRouteGroupFunction, type RouteGroupFunction } from '../../shared/wiring/route-group-function.ts';

/** The editor route group (`/v1/editor/*`), served by a function URL in response-streaming mode. */
const routeGroup: RouteGroupFunction = { serviceName: 'gateway-editor', createRouteGroup: createEditorRouteGroup, renderError: renderEditorError };

/** The handler for a configuration and what a host injects (the local host, tests). */
export function createHandler(config: RuntimeConfig, dependencies: RouteGroupDependencies = {}) {
  return streamingHandler(createRouteGroupFunction(config, routeGroup, dependencies));
}

/** Lambda's entry point: built from the environment on the first invocation. */
export const handler = streamingHandler(onFirstCall(() => createRouteGroupFunction(loadRuntimeConfig(process.env), routeGroup)));
