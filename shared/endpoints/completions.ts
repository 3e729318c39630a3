import { jsonBody } from '../pipeline/generation-endpoint.ts';
import { openAiEndUser } from '../protocols/end-user-fields.ts';
import { completionsApi } from '../protocols/openai-completions/completions-api.ts';
import { completionsGenerations, completionsPromptText, completionsPromptTokenIds, parseCompletionsRequest } from '../protocols/openai-completions/completions-request.ts';
import { openAiApiEndpoint } from './openai-api-endpoint.ts';

/** POST /v1/completions, legacy text completions: JSON and SSE, native to OpenAI-compatible providers, for chat models. */
export const completionsEndpoint = openAiApiEndpoint({
  name: 'completions',
  modelKinds: ['chat'],
  parse: jsonBody(parseCompletionsRequest),
  endUser: openAiEndUser,
  promptText: completionsPromptText,
  promptTokenIds: completionsPromptTokenIds,
  maxOutputTokens: (request) => (typeof request.max_tokens === 'number' && request.max_tokens > 0 ? request.max_tokens : undefined),
  withOutputCap: (body, cap) => ({ ...body, max_tokens: cap }),
  generations: completionsGenerations,
  api: () => completionsApi,
});
