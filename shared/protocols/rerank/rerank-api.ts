import { GatewayError } from '../../core/errors.ts';
import { isRerankProtocol, type WireProtocolId } from '../../core/project-config.ts';
import { stringifyWithUsageCost } from '../openai-chat/chat-usage.ts';
import type { EndpointApi } from '../api-bridge.ts';
import { nativeJsonRequest } from '../native-json-request.ts';
import { presentWithUsageCost } from '../usage-cost.ts';
import { writeCohereRerankAnswer } from './cohere-rerank.ts';
import { rerankProtocols } from './registry.ts';
import { readRerankErrorWords } from './rerank-errors.ts';
import { readRerankRequest, type RerankRequest } from './rerank-request.ts';

/**
 * The rerank API of one provider, chosen by the dialect it speaks: a Cohere-dialect provider receives the
 * client's request as sent (its answer back untouched); any other receives it written in its dialect, and
 * its answer is rewritten in Cohere's v2 shape. A provider's refusal reaches the client in OpenAI's error format.
 */
export function rerankApi(providerProtocols: readonly WireProtocolId[], request: RerankRequest): EndpointApi {
  const dialect = rerankProtocols[providerProtocols.find(isRerankProtocol) ?? 'cohere-rerank'];
  const canonical = readRerankRequest(request);
  const native = dialect.id === 'cohere-rerank';
  const read = (payload: Record<string, unknown>) => {
    const result = dialect.readResponse(payload, canonical);
    if (!result) throw new GatewayError('upstream', 'The provider answered with something that is not a rerank answer.', { code: 'upstream_invalid_response' });
    return result;
  };
  return {
    native,
    request: (body, upstreamModel) =>
      native ? nativeJsonRequest('/rerank', body, upstreamModel) : { path: '/rerank', headers: { 'content-type': 'application/json', accept: 'application/json' }, body: JSON.stringify(dialect.writeRequest(canonical, upstreamModel)) },
    readResponse(payload) {
      const result = read(payload);
      return { id: result.id, model: '', content: [], finish: 'stop', ...(result.usage ? { usage: result.usage } : {}), ...(result.units ? { units: result.units } : {}) };
    },
    presentResponse(text, payload, answer, presentation) {
      if (native) return presentWithUsageCost(text, payload, answer.usage, presentation);
      // Jina and Voyage name no answer: it is named by the gateway's request, whose record the client can then look up.
      const result = read(payload);
      const written = writeCohereRerankAnswer({ ...result, id: result.id || presentation.requestId }, canonical);
      return presentation.injectCost ? stringifyWithUsageCost(written, {}, presentation.priceUsd(answer.usage)) : JSON.stringify(written);
    },
    readErrorWords: readRerankErrorWords,
  };
}
