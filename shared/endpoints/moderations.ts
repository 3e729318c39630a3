import { jsonBody } from '../pipeline/generation-endpoint.ts';
import { moderationsApi } from '../protocols/openai-moderations/moderations-api.ts';
import { moderationsPromptText, parseModerationsRequest } from '../protocols/openai-moderations/moderations-request.ts';
import { openAiApiEndpoint } from './openai-api-endpoint.ts';

/** POST /v1/moderations: native to OpenAI-compatible providers, for moderation models (`omni-moderation-latest` when the request names none, as OpenAI's default). */
export const moderationsEndpoint = openAiApiEndpoint({
  name: 'moderations',
  modelKinds: ['moderation'],
  parse: jsonBody(parseModerationsRequest),
  promptText: moderationsPromptText,
  // Nothing is generated: no output tokens to reserve for.
  maxOutputTokens: () => 0,
  api: () => moderationsApi,
});
