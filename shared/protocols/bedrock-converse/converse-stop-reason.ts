import type { FinishReason } from '../../canonical/canonical-events.ts';
import type { CanonicalRequest } from '../../canonical/canonical-request.ts';

/**
 * Converse's `stopReason` in canonical words. `malformed_model_output` and `malformed_tool_use` end an
 * answer Bedrock could not read (a tool call's input that is not JSON, output it could not parse): a
 * failed answer, not a finish (the JSON and stream paths treat an `error` finish as the upstream's failure).
 */
export function mapConverseStopReason(stopReason: string | null | undefined): FinishReason {
  switch (stopReason) {
    case 'end_turn':
    case 'stop_sequence':
      return 'stop';
    case 'max_tokens':
    case 'model_context_window_exceeded':
      return 'length';
    case 'tool_use':
      return 'tool-calls';
    case 'guardrail_intervened':
    case 'content_filtered':
      return 'content-filter';
    case 'malformed_model_output':
    case 'malformed_tool_use':
      return 'error';
    default:
      return 'other';
  }
}

/**
 * The stop sequence a `stop_sequence` stop matched; undefined for any other stop. Converse does not say
 * which one matched (Bedrock names it only for Claude, and only when asked: Claude is reached through
 * InvokeModel instead). With one stop sequence in the request it can only be that one; with several it is
 * unknown (null), and the stop is still told as a stop at a stop sequence.
 */
export function converseStopSequence(stopReason: string | null | undefined, request: CanonicalRequest | undefined): string | null | undefined {
  if (stopReason !== 'stop_sequence') return undefined;
  const stop = request?.stop ?? [];
  return stop.length === 1 ? (stop[0] ?? null) : null;
}
