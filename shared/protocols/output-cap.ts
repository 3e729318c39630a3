import type { CanonicalRequest } from '../canonical/canonical-request.ts';
import type { UpstreamFeatures } from './wire-protocol.ts';

/**
 * The answer's cap a translated request sends: the client's, lowered to the model's largest answer when it
 * asks for more. A provider refuses a cap above its model's with a 400 (OpenAI for gpt-4o-mini's 16,384,
 * Anthropic for Claude's), and Claude Code asks 32,000 of every model; the client's cap was an upper bound,
 * and the answer still ends at `length` / `max_tokens` when it reaches the lower one.
 */
export function outputCap(request: CanonicalRequest, features: UpstreamFeatures): number | undefined {
  const asked = request.maxOutputTokens;
  const limit = features.outputTokenLimit;
  return asked !== undefined && limit !== undefined && asked > limit ? limit : asked;
}

/**
 * The smallest cap the Responses API takes ("Invalid 'max_output_tokens': integer below minimum value.
 * Expected a value >= 16"); chat and Messages clients may ask for less (a one-token probe, a classifier's
 * five). The prepaid reservation counts at least this many output tokens, so the raise is always covered.
 */
export const SMALLEST_RESPONSES_CAP = 16;

/** outputCap for the Responses API: raised to its smallest when the client asked for less. */
export function responsesOutputCap(request: CanonicalRequest, features: UpstreamFeatures): number | undefined {
  const cap = outputCap(request, features);
  return cap === undefined ? undefined : Math.max(cap, SMALLEST_RESPONSES_CAP);
}
