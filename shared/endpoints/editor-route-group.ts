import type { GatewayServices } from '../pipeline/gateway-services.ts';
import { createRouteGroup, type ErrorReporter, type RouteHandler, type RouteTable } from '../pipeline/route-group.ts';
import { runGeneration } from '../pipeline/run-generation.ts';
import { renderEditorError } from '../protocols/editor-chat/editor-errors.ts';
import { editorChatCompletionsEndpoint } from './editor-chat-completions.ts';
import { handleListModels } from './list-models.ts';

const completeForEditor: RouteHandler = (request, services, route) => runGeneration(editorChatCompletionsEndpoint, request, services, route);

/**
 * The routes of the editor route group (`/v1/editor/*`, its own CloudFront behaviour): the editor appends
 * `/chat/completions` to its base URL and checks it with `/models`; the `/v1/...` forms are accepted too,
 * since a base URL with `/v1` appended is a common mistake.
 */
export const editorRoutes: RouteTable = {
  '/v1/editor/chat/completions': { POST: completeForEditor },
  '/v1/editor/v1/chat/completions': { POST: completeForEditor },
  '/v1/editor/models': { GET: handleListModels },
  '/v1/editor/v1/models': { GET: handleListModels },
};

/** The editor route group, errors in OpenAI's format with setup hints the editor shows. */
export function createEditorRouteGroup(services: GatewayServices, reportError?: ErrorReporter) {
  return createRouteGroup({ routes: editorRoutes, renderError: renderEditorError }, services, reportError);
}
