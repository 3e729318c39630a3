import { jsonBody } from '../pipeline/generation-endpoint.ts';
import { openAiEndUser } from '../protocols/end-user-fields.ts';
import { embeddingsApi } from '../protocols/openai-embeddings/embeddings-api.ts';
import { embeddingsPromptText, embeddingsPromptTokenIds, parseEmbeddingsRequest } from '../protocols/openai-embeddings/embeddings-request.ts';
import { openAiApiEndpoint } from './openai-api-endpoint.ts';

/** POST /v1/embeddings: native to OpenAI-compatible providers, for embedding models. */
export const embeddingsEndpoint = openAiApiEndpoint({
  name: 'embeddings',
  modelKinds: ['embedding'],
  parse: jsonBody(parseEmbeddingsRequest),
  endUser: openAiEndUser,
  promptText: embeddingsPromptText,
  promptTokenIds: embeddingsPromptTokenIds,
  // Nothing is generated: no output tokens to reserve for.
  maxOutputTokens: () => 0,
  api: () => embeddingsApi,
});
