import { createEditorRouteGroup, editorRoutes } from '../../shared/endpoints/editor-route-group.ts';
import { createMessagesRouteGroup, messagesRoutes } from '../../shared/endpoints/messages-route-group.ts';
import { createOpenAiRouteGroup, openAiRoutes } from '../../shared/endpoints/openai-route-group.ts';
import type { GatewayRequest, GatewayResponse } from '../../shared/http/gateway-http.ts';
import type { GatewayServices } from '../../shared/pipeline/gateway-services.ts';
import type { RouteTable } from '../../shared/pipeline/route-group.ts';

/** Every route group with its route table and the shape of its error bodies: what the reliability tests walk. */
export const routeGroupsUnderTest: Array<{
  name: string;
  routes: RouteTable;
  create: (services: GatewayServices) => (request: GatewayRequest) => Promise<GatewayResponse>;
  isErrorBody: (body: unknown) => boolean;
}> = [
  {
    name: 'openai',
    routes: openAiRoutes,
    create: (services) => createOpenAiRouteGroup(services),
    isErrorBody: (body) => isRecord(body) && isRecord(body.error) && typeof body.error.message === 'string' && typeof body.error.type === 'string',
  },
  {
    name: 'editor',
    routes: editorRoutes,
    create: (services) => createEditorRouteGroup(services),
    isErrorBody: (body) => isRecord(body) && isRecord(body.error) && typeof body.error.message === 'string' && typeof body.error.type === 'string',
  },
  {
    name: 'messages',
    routes: messagesRoutes,
    create: (services) => createMessagesRouteGroup(services),
    isErrorBody: (body) => isRecord(body) && body.type === 'error' && isRecord(body.error) && typeof body.error.type === 'string' && typeof body.error.message === 'string',
  },
];

/** Every (method, path) of a route table, with `/*` routes given a sample path below them. */
export function routesOf(routes: RouteTable): Array<{ method: string; path: string }> {
  return Object.entries(routes).flatMap(([pattern, methods]) =>
    Object.keys(methods).map((method) => ({ method, path: pattern.endsWith('/*') ? `${pattern.slice(0, -1)}openai%2Fgpt-4o-mini` : pattern })),
  );
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
