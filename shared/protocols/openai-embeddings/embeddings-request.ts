import { z } from 'zod';
import { parseModelRequest, type RequestBodyJson } from '../parse-model-request.ts';
import { gatewayFieldsShape } from '../routing-fields.ts';

const tokenArray = z.array(z.number().int().nonnegative()).min(1);

/**
 * The fields of an embeddings request the gateway reads: `input` as a string, strings, a token array or
 * token arrays. The rest (`encoding_format`, `dimensions`, `user`, …) reaches the provider untouched.
 */
export const embeddingsRequestSchema = z.looseObject({
  model: z.string().min(1),
  input: z.union([z.string(), z.array(z.string()).min(1), tokenArray, z.array(tokenArray).min(1)]),
  ...gatewayFieldsShape,
});
export type EmbeddingsRequest = z.infer<typeof embeddingsRequestSchema>;

export function parseEmbeddingsRequest(body: RequestBodyJson): EmbeddingsRequest {
  return parseModelRequest(body, embeddingsRequestSchema);
}

/** The text inputs, for the estimate when a provider reports no usage (token arrays are counted by the provider only). */
export function embeddingsPromptText(request: EmbeddingsRequest): string {
  const inputs: unknown[] = Array.isArray(request.input) ? request.input : [request.input];
  return inputs.filter((input): input is string => typeof input === 'string').join('\n');
}
