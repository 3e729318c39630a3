import * as z from 'zod';
import type { BilledUnits } from '../../core/billed-units.ts';
import { parseModelRequest, type RequestBodyJson } from '../parse-model-request.ts';
import { gatewayFieldsShape } from '../routing-fields.ts';

/**
 * A rerank request in Cohere's v2 shape, the one clients speak on `/v1/rerank`: a query, the documents
 * (strings, or `{text}` objects), and optionally `top_n` and `return_documents`. Other fields
 * (`max_tokens_per_doc`, …) reach a Cohere-dialect provider untouched.
 */
export const rerankRequestSchema = z.looseObject({
  model: z.string().min(1),
  query: z.string().min(1),
  documents: z.array(z.union([z.string(), z.looseObject({ text: z.string() })])).min(1),
  top_n: z.number().int().positive().nullish(),
  return_documents: z.boolean().nullish(),
  ...gatewayFieldsShape,
});
export type RerankRequest = z.infer<typeof rerankRequestSchema>;

export function parseRerankRequest(body: RequestBodyJson): RerankRequest {
  return parseModelRequest(body, rerankRequestSchema);
}

/** The request in protocol-neutral terms: what each dialect's writer reads. */
export interface CanonicalRerankRequest {
  query: string;
  documents: string[];
  topN?: number;
  returnDocuments: boolean;
}

export function readRerankRequest(request: RerankRequest): CanonicalRerankRequest {
  return {
    query: request.query,
    documents: request.documents.map((document) => (typeof document === 'string' ? document : document.text)),
    ...(request.top_n ? { topN: request.top_n } : {}),
    returnDocuments: request.return_documents === true,
  };
}

export function rerankPromptText(request: RerankRequest): string {
  const { query, documents } = readRerankRequest(request);
  return [query, ...documents].join('\n');
}

/** Documents per search unit (Cohere), and the tokens past which one document is split into several. */
const DOCUMENTS_PER_SEARCH_UNIT = 100;
const TOKENS_PER_DOCUMENT_CHUNK = 500;

/**
 * The most search units a request can be billed: a search unit is a query over up to 100 documents, and
 * a document longer than 500 tokens counts as one per 500 (a token covers at least one byte, so its bytes
 * bound its tokens).
 */
export function searchUnitsBound(request: RerankRequest): BilledUnits {
  const chunks = readRerankRequest(request).documents.reduce((sum, document) => sum + Math.max(1, Math.ceil(Buffer.byteLength(document) / TOKENS_PER_DOCUMENT_CHUNK)), 0);
  return { searchUnits: Math.ceil(chunks / DOCUMENTS_PER_SEARCH_UNIT) };
}

/** The search units Cohere bills a request when its answer does not say: one per 100 documents. */
export function searchUnitsOf(request: CanonicalRerankRequest): number {
  return Math.ceil(request.documents.length / DOCUMENTS_PER_SEARCH_UNIT);
}
