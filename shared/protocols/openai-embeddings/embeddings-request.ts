import * as z from 'zod';
import { parseModelRequest, type RequestBodyJson } from '../parse-model-request.ts';
import { countTokenIds } from '../token-ids.ts';
import { gatewayFieldsShape } from '../routing-fields.ts';

const tokenArray = z.array(z.number().int().nonnegative());

/** Nothing to embed: OpenAI refuses an empty string, an empty array, and an empty string or token array in one. */
function isEmptyInput(input: string | string[] | number[] | number[][]): boolean {
  if (typeof input === 'string' || input.length === 0) return input.length === 0;
  return input.some((item) => typeof item !== 'number' && item.length === 0);
}

/**
 * The fields of an embeddings request the gateway reads, and refuses as OpenAI does before any provider is
 * called: `input` as a string, strings, a token array or token arrays, none of them empty; `encoding_format`
 * float or base64. The rest (`dimensions`, `user`, …) reaches the provider untouched.
 */
export const embeddingsRequestSchema = z.looseObject({
  model: z.string().min(1),
  input: z
    .union([z.string(), z.array(z.string()), tokenArray, z.array(tokenArray)])
    .refine((input) => !isEmptyInput(input), { error: 'an input must not be an empty string, an empty array, or an array holding an empty string or token array' }),
  encoding_format: z.enum(['float', 'base64'], { error: (issue) => `${JSON.stringify(issue.input)} is not a supported value; supported values are 'float' and 'base64'` }).nullish(),
  ...gatewayFieldsShape,
});
export type EmbeddingsRequest = z.infer<typeof embeddingsRequestSchema>;

export function parseEmbeddingsRequest(body: RequestBodyJson): EmbeddingsRequest {
  return parseModelRequest(body, embeddingsRequestSchema);
}

/** The text inputs, for the estimate when a provider reports no usage (token arrays: embeddingsPromptTokenIds). */
export function embeddingsPromptText(request: EmbeddingsRequest): string {
  const inputs: unknown[] = Array.isArray(request.input) ? request.input : [request.input];
  return inputs.filter((input): input is string => typeof input === 'string').join('\n');
}

/** The tokens of token-array inputs, exactly: what a provider that reports no usage embedded. */
export function embeddingsPromptTokenIds(request: EmbeddingsRequest): number {
  return countTokenIds(request.input);
}
