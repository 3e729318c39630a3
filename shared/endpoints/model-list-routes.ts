import type { RouteTable } from '../pipeline/route-group.ts';
import { handleGetModel } from './get-model.ts';
import { handleListModels } from './list-models.ts';

/**
 * The model list and a model's entry, loaded on first use (lazyRoutes): clients ask for them once, at set-up,
 * so the cold start of the requests that generate does not pay for their pricing and paging code. Their
 * paths and methods: model-list-methods.ts.
 */
export const modelListRoutes: RouteTable = {
  '/v1/models': { GET: handleListModels },
  '/v1/models/*': { GET: handleGetModel },
  // The editor checks its base URL with `/models`, with or without the `/v1` people append; the OpenAI
  // SDK's models.retrieve, given the editor's base URL, asks for `/models/{id}` there.
  '/v1/editor/models': { GET: handleListModels },
  '/v1/editor/models/*': { GET: handleGetModel },
  '/v1/editor/v1/models': { GET: handleListModels },
  '/v1/editor/v1/models/*': { GET: handleGetModel },
};
