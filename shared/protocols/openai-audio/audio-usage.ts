import * as z from 'zod';
import { billedSeconds, type BilledUnits } from '../../core/billed-units.ts';
import type { TokenUsage } from '../../core/token-usage.ts';

const count = z.number().nonnegative().nullish();

/**
 * The usage OpenAI's audio APIs report, leniently: tokens (`{type: "tokens", input_tokens, output_tokens,
 * input_token_details: {audio_tokens, text_tokens}}`, gpt-4o models) or seconds of audio (`{type:
 * "duration", seconds}`, whisper-1).
 */
const audioUsageSchema = z.looseObject({
  type: z.string().nullish(),
  input_tokens: count,
  output_tokens: count,
  seconds: count,
});

/** Token usage of an audio answer, when it reports tokens. */
export function readAudioTokenUsage(usage: unknown): TokenUsage | undefined {
  const parsed = audioUsageSchema.safeParse(usage);
  if (!parsed.success || usage === null || usage === undefined) return undefined;
  const { input_tokens: input, output_tokens: output } = parsed.data;
  if (input === undefined && output === undefined) return undefined;
  return { promptTokens: Math.round(input ?? 0), completionTokens: Math.round(output ?? 0), cachedTokens: 0, reasoningTokens: 0, estimated: false };
}

/** The seconds of audio an answer reports (usage of type duration, or verbose_json's `duration`), billed whole. */
export function readAudioSeconds(payload: Record<string, unknown>): BilledUnits | undefined {
  const usage = audioUsageSchema.safeParse(payload.usage);
  const seconds = usage.success && typeof usage.data?.seconds === 'number' ? usage.data.seconds : typeof payload.duration === 'number' ? payload.duration : undefined;
  return seconds === undefined ? undefined : { audioSeconds: billedSeconds(seconds) };
}
