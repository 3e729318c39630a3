import { rerankProtocolSchema } from '../core/project-config.ts';
import { jsonBody, type GenerationEndpoint } from '../pipeline/generation-endpoint.ts';
import { apiBridge } from '../protocols/api-bridge.ts';
import { openAiChatProtocol } from '../protocols/openai-chat/openai-chat-protocol.ts';
import { rerankApi } from '../protocols/rerank/rerank-api.ts';
import { parseRerankRequest, rerankPromptText, searchUnitsBound, type RerankRequest } from '../protocols/rerank/rerank-request.ts';

/**
 * POST /v1/rerank in Cohere's v2 shape, for rerank models of providers that serve a rerank dialect (Cohere
 * natively; Jina, Together and Voyage translated). Errors are the `/v1/*` group's (OpenAI's).
 */
export const rerankEndpoint: GenerationEndpoint<RerankRequest> = {
  name: 'rerank',
  clientProtocol: openAiChatProtocol,
  modelKinds: ['rerank'],
  parse: jsonBody(parseRerankRequest),
  promptText: rerankPromptText,
  maxOutputTokens: () => 0,
  unitsBound: searchUnitsBound,
  upstream: {
    protocols: rerankProtocolSchema.options,
    bridgeTo: (target, body) => apiBridge(rerankApi(target.provider.protocols, body)),
  },
};
