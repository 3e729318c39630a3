const PASS_THROUGH_METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;

/**
 * The paths and methods of the model endpoints beyond chat and of the pass-through (model-api-routes.ts),
 * known without loading their code (see lazyRoutes).
 */
export const MODEL_API_METHODS: Readonly<Record<string, readonly string[]>> = {
  '/v1/completions': ['POST'],
  '/v1/embeddings': ['POST'],
  '/v1/audio/speech': ['POST'],
  '/v1/audio/transcriptions': ['POST'],
  '/v1/audio/translations': ['POST'],
  '/v1/images/generations': ['POST'],
  '/v1/images/edits': ['POST'],
  '/v1/moderations': ['POST'],
  '/v1/rerank': ['POST'],
  '/v1/videos': ['POST', 'GET'],
  // A video of the project: `/v1/videos/{id}` and `/v1/videos/{id}/content`.
  '/v1/videos/*': ['GET', 'DELETE'],
  // Every other `/v1/*` route, for projects that allow pass-through (404 otherwise).
  '/v1/*': PASS_THROUGH_METHODS,
};

