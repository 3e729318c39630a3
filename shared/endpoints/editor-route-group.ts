import type { GatewayServices } from '../pipeline/gateway-services.ts';
import { lazyRoutes } from '../pipeline/lazy-routes.ts';
import { createRouteGroup, type ErrorReporter, type RouteHandler, type RouteTable } from '../pipeline/route-group.ts';
import { runGeneration } from '../pipeline/run-generation.ts';
import { editorBaseUrlHint } from '../protocols/editor-chat/editor-base-url-hint.ts';
import { renderEditorError } from '../protocols/editor-chat/editor-errors.ts';
import { editorChatCompletionsEndpoint } from './editor-chat-completions.ts';
import { EDITOR_MODEL_LIST_METHODS } from './model-list-methods.ts';

const completeForEditor: RouteHandler = (request, services, route) => runGeneration(editorChatCompletionsEndpoint, request, services, route);

/**
 * The routes of the editor route group (`/v1/editor/*`, its own CloudFront behaviour): the editor appends
 * `/chat/completions` to its base URL and checks it with `/models`; the `/v1/...` forms are accepted too,
 * since a base URL with `/v1` appended is a common mistake.
 */
export const editorRoutes: RouteTable = {
  '/v1/editor/chat/completions': { POST: completeForEditor },
  '/v1/editor/v1/chat/completions': { POST: completeForEditor },
  // Loaded on first use, as on the OpenAI route group.
  ...lazyRoutes(EDITOR_MODEL_LIST_METHODS, () => import('./model-list-routes.ts').then((module) => module.modelListRoutes)),
};

/** The editor route group, errors in OpenAI's format with setup hints the editor shows. */
export function createEditorRouteGroup(services: GatewayServices, reportError?: ErrorReporter) {
  return createRouteGroup({ routes: editorRoutes, renderError: renderEditorError, baseUrlHint: editorBaseUrlHint }, services, reportError);
}
