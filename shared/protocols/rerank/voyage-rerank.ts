import * as z from 'zod';
import { promptUsage } from './jina-rerank.ts';
import type { RerankProtocol } from './rerank-protocol.ts';

/** Voyage's rerank answer, leniently: `data` best first, `document` a string when asked for, `usage.total_tokens`. */
const voyageAnswerSchema = z.looseObject({
  data: z.array(z.looseObject({ index: z.number().int(), relevance_score: z.number(), document: z.string().nullish() })),
  usage: z.looseObject({ total_tokens: z.number().int().nonnegative().nullish() }).nullish(),
});

/** Voyage's rerank (`POST /v1/rerank`): `top_k` for the number of results, billed in tokens. */
export const voyageRerank: RerankProtocol = {
  id: 'voyage-rerank',
  writeRequest: (request, upstreamModel) => ({
    model: upstreamModel,
    query: request.query,
    documents: request.documents,
    ...(request.topN ? { top_k: request.topN } : {}),
    return_documents: request.returnDocuments,
  }),
  readResponse(payload) {
    const parsed = voyageAnswerSchema.safeParse(payload);
    if (!parsed.success) return undefined;
    const tokens = parsed.data.usage?.total_tokens;
    return {
      id: '',
      results: parsed.data.data.map((result) => ({
        index: result.index,
        relevanceScore: result.relevance_score,
        ...(typeof result.document === 'string' ? { document: result.document } : {}),
      })),
      ...(typeof tokens === 'number' ? { usage: promptUsage(tokens) } : {}),
    };
  },
};
