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
