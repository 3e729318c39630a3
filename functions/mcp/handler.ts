import { loadRuntimeConfig, type RuntimeConfig } from '../../shared/config/runtime-config.ts';
import { createMcpRouteGroup } from '../../shared/endpoints/mcp-route-group.ts';
import { onFirstCall, streamingHandler } from '../../shared/lambda/lambda-handlers.ts';
import { renderMcpError } from '../../shared/mcp/mcp-errors.ts';
import type { RouteGroupDependencies } from '../../shared/wiring/create-gateway-services.ts';
import { createRouteGroupFunction, type RouteGroupFunction } from '../../shared/wiring/route-group-function.ts';

/** The tool bridge's route group (`/mcp/*`), served by a function URL in response-streaming mode. */
function routeGroupOf(config: RuntimeConfig): RouteGroupFunction {
  const settings = { upstreamTimeoutMs: config.GATEWAY_MCP_UPSTREAM_TIMEOUT_MS };
  return {
    serviceName: 'gateway-mcp',
    createRouteGroup: (services, reportError) => createMcpRouteGroup(services, settings, reportError),
    renderError: renderMcpError,
  };
}

/** The handler for a configuration and what a host injects (the local host, tests). */
export function createHandler(config: RuntimeConfig, dependencies: RouteGroupDependencies = {}) {
  return streamingHandler(createRouteGroupFunction(config, routeGroupOf(config), dependencies));
}

/** Lambda's entry point: built from the environment on the first invocation. */
export const handler = streamingHandler(
  onFirstCall(() => {
    const config = loadRuntimeConfig(process.env);
    return createRouteGroupFunction(config, routeGroupOf(config));
  }),
);
