/** The paths and methods of the model list routes (model-list-routes.ts), known before their code loads. */
export const MODEL_LIST_METHODS = { '/v1/models': ['GET'], '/v1/models/*': ['GET'] } as const;
export const EDITOR_MODEL_LIST_METHODS = {
  '/v1/editor/models': ['GET'],
  '/v1/editor/models/*': ['GET'],
  '/v1/editor/v1/models': ['GET'],
  '/v1/editor/v1/models/*': ['GET'],
} as const;
