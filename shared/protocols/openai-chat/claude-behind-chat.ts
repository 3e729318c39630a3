import type { CanonicalMessage, CanonicalRequest } from '../../canonical/canonical-request.ts';
import { thinkingModeFor } from '../anthropic-messages/claude-thinking-mode.ts';

/**
 * The reasoning settings a chat server reaching Claude (OpenRouter's `anthropic/claude-…`) may pass on: none
 * where Anthropic refuses thinking, as a translation to Anthropic itself leaves it out (messages-thinking.ts):
 * with a forced tool (`required`, a named tool), and, for Claude's budgeted thinking, inside a tool-use loop,
 * whose assistant turn must open with its signed thinking, which no chat request carries back. Named as
 * dropped (`reasoning`).
 */
export function reasoningClaudeTakes(request: CanonicalRequest, upstreamModel: string, reasoning: CanonicalRequest['reasoning']): CanonicalRequest['reasoning'] {
  if (reasoning === undefined || !/claude/i.test(upstreamModel)) return reasoning;
  const forcedTool = request.toolChoice === 'required' || typeof request.toolChoice === 'object';
  if (!forcedTool && !(thinkingModeFor(upstreamModel).type === 'budget' && endsInToolResults(request.messages))) return reasoning;
  request.dropped.add('reasoning');
  return undefined;
}

/** Whether the conversation ends in tool results (a chat client's tool messages, an Anthropic client's user turn of them): a loop still open. */
function endsInToolResults(messages: readonly CanonicalMessage[]): boolean {
  const last = messages.at(-1);
  return last !== undefined && (last.role === 'tool' || (last.role === 'user' && last.parts.some((part) => part.type === 'tool-result')));
}
