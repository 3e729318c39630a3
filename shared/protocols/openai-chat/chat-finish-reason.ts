import type { FinishReason } from '../../canonical/canonical-events.ts';

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
