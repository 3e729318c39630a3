import { z } from 'zod';
import { parseModelRequest, type RequestBodyJson } from '../parse-model-request.ts';
import { routingFieldsShape } from '../routing-fields.ts';

const tokenArray = z.array(z.number().int().nonnegative());

/**
 * The fields of a legacy completion request the gateway reads; the rest (`suffix`, `echo`, `logprobs`,
 * `best_of`, …) reaches the provider untouched.
 */
export const completionsRequestSchema = z.looseObject({
  model: z.string().min(1),
  prompt: z.union([z.string(), z.array(z.string()), tokenArray, z.array(tokenArray)]),
  stream: z.boolean().nullish(),
  stream_options: z.looseObject({ include_usage: z.boolean().nullish() }).nullish(),
  max_tokens: z.number().int().nonnegative().nullish(),
  ...routingFieldsShape,
});
export type CompletionsRequest = z.infer<typeof completionsRequestSchema>;

export function parseCompletionsRequest(body: RequestBodyJson): CompletionsRequest {
  return parseModelRequest(body, completionsRequestSchema);
}

/** The prompt's text, for estimates (token-array prompts are counted by the provider only). */
export function completionsPromptText(request: CompletionsRequest): string {
  const prompts: unknown[] = Array.isArray(request.prompt) ? request.prompt : [request.prompt];
  return prompts.filter((prompt): prompt is string => typeof prompt === 'string').join('\n');
}
