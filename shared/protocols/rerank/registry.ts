import type { RerankProtocolId } from '../../core/project-config.ts';
import { cohereRerank } from './cohere-rerank.ts';
import { jinaRerank } from './jina-rerank.ts';
import type { RerankProtocol } from './rerank-protocol.ts';
import { voyageRerank } from './voyage-rerank.ts';

/** Every rerank dialect the gateway speaks: adding one is adding its module here. */
export const rerankProtocols: Readonly<Record<RerankProtocolId, RerankProtocol>> = {
  'cohere-rerank': cohereRerank,
  'jina-rerank': jinaRerank,
  'voyage-rerank': voyageRerank,
};
