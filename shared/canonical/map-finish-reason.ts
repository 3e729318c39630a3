import type { FinishReason } from './canonical-events.ts';

/**
 * Anthropic's `stop_reason` in canonical words. `pause_turn` (a server tool paused a long turn) reads as a
 * stop: a chat client can do nothing but send the conversation again, which is what resuming means.
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

/** OpenAI chat's `finish_reason` in canonical words (`function_call` is the legacy name for tool calls). */
export function mapChatFinishReason(finishReason: string | null | undefined): FinishReason {
  switch (finishReason) {
    case 'stop':
      return 'stop';
    case 'length':
      return 'length';
    case 'tool_calls':
    case 'function_call':
      return 'tool-calls';
    case 'content_filter':
      return 'content-filter';
    case 'error':
      return 'error';
    default:
      return 'other';
  }
}

/** A canonical reason as OpenAI chat's `finish_reason`; chat has no word for "error" or "other", so: stop. */
export function toChatFinishReason(reason: FinishReason): 'stop' | 'length' | 'tool_calls' | 'content_filter' {
  switch (reason) {
    case 'length':
      return 'length';
    case 'tool-calls':
      return 'tool_calls';
    case 'content-filter':
      return 'content_filter';
    default:
      return 'stop';
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
 * The stop_reason for a chat answer that made tool calls or not. Some OpenAI-compatible servers end tool
 * calls with finish_reason "stop"; an Anthropic client would then not run the tools, so a plain stop after
 * tool calls reads as tool_use.
 */
export function anthropicStopReasonFor(reason: FinishReason, madeToolCalls: boolean) {
  return toAnthropicStopReason(reason === 'stop' && madeToolCalls ? 'tool-calls' : reason);
}
