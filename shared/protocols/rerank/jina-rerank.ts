import * as z from 'zod';
import type { TokenUsage } from '../../core/token-usage.ts';
import type { RerankProtocol } from './rerank-protocol.ts';

const count = z.number().int().nonnegative().nullish();

/**
 * Jina's rerank answer (Together's is the same shape), leniently: results with `document: {text}` when
 * asked for, usage as `total_tokens` (Jina) or `prompt_tokens` (Together).
 */
const jinaAnswerSchema = z.looseObject({
  id: z.string().nullish(),
  results: z.array(z.looseObject({ index: z.number().int(), relevance_score: z.number(), document: z.union([z.string(), z.looseObject({ text: z.string().nullish() })]).nullish() })),
  usage: z.looseObject({ prompt_tokens: count, total_tokens: count }).nullish(),
});

/** Jina's rerank (`POST /v1/rerank`), also Together's: `top_n`, `return_documents`, billed in tokens. */
export const jinaRerank: RerankProtocol = {
  id: 'jina-rerank',
  writeRequest: (request, upstreamModel) => ({
    model: upstreamModel,
    query: request.query,
    documents: request.documents,
    ...(request.topN ? { top_n: request.topN } : {}),
    return_documents: request.returnDocuments,
  }),
  readResponse(payload) {
    const parsed = jinaAnswerSchema.safeParse(payload);
    if (!parsed.success) return undefined;
    const tokens = parsed.data.usage?.prompt_tokens ?? parsed.data.usage?.total_tokens;
    return {
      id: parsed.data.id ?? '',
      results: parsed.data.results.map((result) => {
        const text = typeof result.document === 'string' ? result.document : result.document?.text;
        return { index: result.index, relevanceScore: result.relevance_score, ...(typeof text === 'string' ? { document: text } : {}) };
      }),
      ...(typeof tokens === 'number' ? { usage: promptUsage(tokens) } : {}),
    };
  },
};

export function promptUsage(tokens: number): TokenUsage {
  return { promptTokens: tokens, completionTokens: 0, cachedTokens: 0, reasoningTokens: 0, estimated: false };
}
