/** The paths and methods of the Responses routes (responses-routes.ts), known before their code loads. */
export const RESPONSES_METHODS = { '/v1/responses': ['POST'], '/v1/responses/input_tokens': ['POST'], '/v1/responses/compact': ['POST'], '/v1/responses/*': ['GET', 'DELETE', 'POST'] } as const;
