import type { GatewayServices } from '../pipeline/gateway-services.ts';
import { createRouteGroup, type ErrorReporter } from '../pipeline/route-group.ts';
import { renderMcpError } from '../mcp/mcp-errors.ts';
import { createBridgeHandler, type BridgeSettings } from '../mcp/serve-bridge-request.ts';

/**
 * The tool bridge's route group (`/mcp/*`, its own CloudFront behaviour); refusals as JSON-RPC errors.
 * GET is no route: the stateless bridge offers no server-initiated stream, which the MCP spec lets a server
 * refuse with 405, so GET, like any other method, is 405 with `Allow: POST, DELETE`, the methods it takes.
 */
export function createMcpRouteGroup(services: GatewayServices, settings: BridgeSettings, reportError?: ErrorReporter) {
  const bridge = createBridgeHandler(settings);
  return createRouteGroup({ routes: { '/mcp/v1': { POST: bridge, DELETE: bridge } }, renderError: renderMcpError }, services, reportError);
}
