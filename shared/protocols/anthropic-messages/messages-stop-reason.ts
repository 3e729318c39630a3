import type { FinishReason } from '../../canonical/canonical-events.ts';

/**
 * Anthropic's `stop_reason` in canonical words. `pause_turn` (a server tool paused a long turn) reads as a
 * stop: a client of another protocol can do nothing but send the conversation again, which is what resuming means.
 */
export function mapAnthropicStopReason(stopReason: string | null | undefined): FinishReason {
  switch (stopReason) {
    case 'end_turn':
    case 'stop_sequence':
    case 'pause_turn':
      return 'stop';
    case 'max_tokens':
    case 'model_context_window_exceeded':
      return 'length';
    case 'tool_use':
      return 'tool-calls';
    case 'refusal':
      return 'content-filter';
    default:
      return 'other';
  }
}

/** A canonical reason as Anthropic's `stop_reason`; Anthropic has no word for "error" or "other": end_turn. */
export function toAnthropicStopReason(reason: FinishReason): 'end_turn' | 'max_tokens' | 'tool_use' | 'refusal' {
  switch (reason) {
    case 'length':
      return 'max_tokens';
    case 'tool-calls':
      return 'tool_use';
    case 'content-filter':
      return 'refusal';
    default:
      return 'end_turn';
  }
}

/**
 * The stop_reason for an answer that made tool calls or not. Some OpenAI-compatible servers end tool
 * calls with finish_reason "stop"; an Anthropic client would then not run the tools, so a plain stop after
 * tool calls reads as tool_use.
 */
export function anthropicStopReasonFor(reason: FinishReason, madeToolCalls: boolean) {
  return toAnthropicStopReason(reason === 'stop' && madeToolCalls ? 'tool-calls' : reason);
}

/**
 * A message's `stop_reason` and `stop_sequence`. A stop at a stop sequence (`stopSequence` present) is
 * Anthropic's `stop_sequence`, naming the sequence when the upstream's answer tells which (else null, which
 * Anthropic's type allows); any other stop names none.
 */
export function anthropicStopOf(reason: FinishReason, madeToolCalls: boolean, stopSequence: string | null | undefined) {
  if (stopSequence !== undefined) return { stop_reason: 'stop_sequence' as const, stop_sequence: stopSequence };
  return { stop_reason: anthropicStopReasonFor(reason, madeToolCalls), stop_sequence: null };
}
