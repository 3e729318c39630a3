import type { BilledUnits } from '../../core/billed-units.ts';
import type { RerankProtocolId } from '../../core/project-config.ts';
import type { TokenUsage } from '../../core/token-usage.ts';
import type { CanonicalRerankRequest } from './rerank-request.ts';

/** A rerank answer in protocol-neutral terms. */
export interface CanonicalRerankResult {
  id: string;
  /** Best first, as the provider ranked them; `document` only when the client asked for the documents. */
  results: Array<{ index: number; relevanceScore: number; document?: string }>;
  /** Tokens, for providers that bill them (Jina, Voyage, Together). */
  usage?: TokenUsage;
  /** Search units, for providers that bill them (Cohere). */
  units?: BilledUnits;
}

/**
 * One provider's rerank dialect at `POST <base URL>/rerank`: how a request is written in it and how its
 * answer reads. Cohere's is also the clients' (a request to a Cohere-dialect provider goes natively);
 * the others are translated both ways, each in its own module of this folder.
 */
export interface RerankProtocol {
  id: RerankProtocolId;
  writeRequest(request: CanonicalRerankRequest, upstreamModel: string): Record<string, unknown>;
  /** Undefined when the payload is not an answer of this dialect. */
  readResponse(payload: Record<string, unknown>, request: CanonicalRerankRequest): CanonicalRerankResult | undefined;
}
