import * as z from 'zod';
import type { TokenUsage } from '../../core/token-usage.ts';

const count = z.number().int().nonnegative().nullish();

/** The token usage gpt-image models report (`input_tokens` of text and image, `output_tokens` of image), leniently. */
const imagesUsageSchema = z.looseObject({
  input_tokens: count,
  output_tokens: count,
  input_tokens_details: z.looseObject({ cached_tokens: count.catch(undefined) }).nullish().catch(undefined),
});

/** An image answer's token usage, or undefined when it has none (DALL·E models: priced per image instead). */
export function readImagesUsage(usage: unknown): TokenUsage | undefined {
  const parsed = imagesUsageSchema.safeParse(usage);
  if (!parsed.success || usage === null || usage === undefined) return undefined;
  const { input_tokens: input, output_tokens: output } = parsed.data;
  if (input === undefined && output === undefined) return undefined;
  return {
    promptTokens: input ?? 0,
    completionTokens: output ?? 0,
    cachedTokens: parsed.data.input_tokens_details?.cached_tokens ?? 0,
    reasoningTokens: 0,
    estimated: false,
  };
}
