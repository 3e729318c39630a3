import type { CanonicalRequest } from '../canonical/canonical-request.ts';
import { claudeSamplingRule } from './anthropic-messages/claude-thinking-mode.ts';

/** Sampling as a Claude model takes it, on Anthropic's Messages API and on Bedrock's Converse alike. */
export interface ClaudeSampling {
  temperature?: number;
  topP?: number;
}

/**
 * The request's temperature (capped at 1: Anthropic's range is 0–1, OpenAI's 0–2) and top_p, as far as the
 * upstream model takes them (claude-thinking-mode.ts); what it would refuse is left out and named as dropped.
 * Where only one of the two may go, the one the client left at its default (1) gives way; if neither, top_p
 * does, since temperature is the one clients tune.
 */
export function claudeSampling(request: CanonicalRequest, upstreamModel: string): ClaudeSampling {
  let { temperature, topP } = request;
  const rule = claudeSamplingRule(upstreamModel);
  if (rule === 'neither') {
    if (temperature !== undefined) request.dropped.add('temperature');
    if (topP !== undefined) request.dropped.add('top_p');
    return {};
  }
  if (rule === 'either' && temperature !== undefined && topP !== undefined) {
    if (topP !== 1 && temperature === 1) {
      temperature = undefined;
      request.dropped.add('temperature');
    } else {
      topP = undefined;
      request.dropped.add('top_p');
    }
  }
  return {
    ...(temperature !== undefined ? { temperature: Math.min(temperature, 1) } : {}),
    ...(topP !== undefined ? { topP } : {}),
  };
}
