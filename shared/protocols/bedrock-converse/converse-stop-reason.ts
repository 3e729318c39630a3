import type { FinishReason } from '../../canonical/canonical-events.ts';

/** Converse's `stopReason` in canonical words. */
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
    default:
      return 'other';
  }
}
