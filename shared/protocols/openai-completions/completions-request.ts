import * as z from 'zod';
import type { Generations } from '../../pipeline/generation-endpoint.ts';
import { parseModelRequest, type RequestBodyJson } from '../parse-model-request.ts';
import { gatewayFieldsShape } from '../routing-fields.ts';
import { countTokenIds } from '../token-ids.ts';

const tokenArray = z.array(z.number().int().nonnegative());

/** OpenAI's limits: completions returned per prompt (`n`), and candidates generated per prompt (`best_of`). */
export const MAX_COMPLETIONS_PER_PROMPT = 128;
export const MAX_BEST_OF = 20;

/**
 * The fields of a legacy completion request the gateway reads; the rest (`suffix`, `echo`, `logprobs`,
 * …) reaches the provider untouched.
 */
export const completionsRequestSchema = z.looseObject({
  model: z.string().min(1),
  prompt: z.union([z.string(), z.array(z.string()), tokenArray, z.array(tokenArray)]),
  stream: z.boolean().nullish(),
  stream_options: z.looseObject({ include_usage: z.boolean().nullish() }).nullish(),
  max_tokens: z.number().int().nonnegative().nullish(),
  n: z.number().int().min(1).max(MAX_COMPLETIONS_PER_PROMPT).nullish(),
  best_of: z.number().int().min(1).max(MAX_BEST_OF).nullish(),
  ...gatewayFieldsShape,
});
export type CompletionsRequest = z.infer<typeof completionsRequestSchema>;

export function parseCompletionsRequest(body: RequestBodyJson): CompletionsRequest {
  return parseModelRequest(body, completionsRequestSchema);
}

/** The prompt's text, for estimates (token-array prompts: completionsPromptTokenIds). */
export function completionsPromptText(request: CompletionsRequest): string {
  const prompts: unknown[] = Array.isArray(request.prompt) ? request.prompt : [request.prompt];
  return prompts.filter((prompt): prompt is string => typeof prompt === 'string').join('\n');
}

/** The tokens of token-array prompts, exactly. */
export function completionsPromptTokenIds(request: CompletionsRequest): number {
  return countTokenIds(request.prompt);
}

/**
 * What a legacy completion has the provider generate: every prompt of a list (of strings or of token
 * arrays) is answered on its own, with `best_of` candidates generated and billed, `n` of them returned.
 */
export function completionsGenerations(request: CompletionsRequest): Generations {
  const { prompt } = request;
  const listsPrompts = Array.isArray(prompt) && prompt.some((item) => typeof item !== 'number');
  // An empty list is counted as one prompt: a provider may answer it as an empty one.
  const prompts = listsPrompts ? Math.max(1, prompt.length) : 1;
  return { prompts, choices: prompts * Math.max(request.n ?? 1, request.best_of ?? 1) };
}
