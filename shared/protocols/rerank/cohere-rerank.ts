import * as z from 'zod';
import type { RerankProtocol } from './rerank-protocol.ts';
import { searchUnitsOf, type CanonicalRerankRequest } from './rerank-request.ts';
import type { CanonicalRerankResult } from './rerank-protocol.ts';

/** Cohere's v2 rerank answer, leniently: the results and the search units billed. */
const cohereAnswerSchema = z.looseObject({
  id: z.string().nullish(),
  results: z.array(z.looseObject({ index: z.number().int(), relevance_score: z.number(), document: z.looseObject({ text: z.string().nullish() }).nullish() })),
  meta: z
    .looseObject({
      billed_units: z.looseObject({ search_units: z.number().nonnegative().nullish() }).nullish(),
    })
    .nullish(),
});

/** Cohere's rerank (`POST /v2/rerank`), the shape clients speak on `/v1/rerank`: billed in search units. */
export const cohereRerank: RerankProtocol = {
  id: 'cohere-rerank',
  writeRequest: (request, upstreamModel) => ({
    model: upstreamModel,
    query: request.query,
    documents: request.documents,
    ...(request.topN ? { top_n: request.topN } : {}),
    ...(request.returnDocuments ? { return_documents: true } : {}),
  }),
  readResponse(payload, request) {
    const parsed = cohereAnswerSchema.safeParse(payload);
    if (!parsed.success) return undefined;
    const billed = parsed.data.meta?.billed_units?.search_units;
    return {
      id: parsed.data.id ?? '',
      results: parsed.data.results.map((result) => ({
        index: result.index,
        relevanceScore: result.relevance_score,
        ...(typeof result.document?.text === 'string' ? { document: result.document.text } : {}),
      })),
      units: { searchUnits: typeof billed === 'number' ? Math.ceil(billed) : searchUnitsOf(request) },
    };
  },
};

/** A rerank answer as Cohere's v2 shape writes it, for clients of a translated provider. */
export function writeCohereRerankAnswer(result: CanonicalRerankResult, request: CanonicalRerankRequest): Record<string, unknown> {
  return {
    id: result.id,
    results: result.results.map((entry) => ({
      index: entry.index,
      relevance_score: entry.relevanceScore,
      ...(request.returnDocuments ? { document: { text: entry.document ?? request.documents[entry.index] ?? '' } } : {}),
    })),
    meta: {
      api_version: { version: '2' },
      ...(result.units?.searchUnits !== undefined ? { billed_units: { search_units: result.units.searchUnits } } : {}),
      ...(result.usage ? { tokens: { input_tokens: result.usage.promptTokens } } : {}),
    },
  };
}
