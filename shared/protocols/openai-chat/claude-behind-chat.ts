import type { CanonicalMessage, CanonicalRequest } from '../../canonical/canonical-request.ts';
import { thinkingModeFor } from '../anthropic-messages/claude-thinking-mode.ts';

/**
 * The reasoning settings a chat server reaching Claude (OpenRouter's `anthropic/claude-…`) may pass on: none
 * where Anthropic refuses thinking, as a translation to Anthropic itself leaves it out (messages-thinking.ts):
 * with a forced tool (`required`, a named tool), and, for Claude's budgeted thinking, inside a tool-use loop
 * whose assistant turn did not open with signed thinking, which a chat server's answers never give back
 * (the loop's thinking would have to return, signed, on every step). Named as dropped (`reasoning`).
 */
export function reasoningClaudeTakes(request: CanonicalRequest, upstreamModel: string, reasoning: CanonicalRequest['reasoning']): CanonicalRequest['reasoning'] {
  if (reasoning === undefined || !/claude/i.test(upstreamModel)) return reasoning;
  const forcedTool = request.toolChoice === 'required' || typeof request.toolChoice === 'object';
  if (!forcedTool && !(thinkingModeFor(upstreamModel).type === 'budget' && openToolLoopLacksSignedThinking(request.messages))) return reasoning;
  request.dropped.add('reasoning');
  return undefined;
}

/** Tool results: a chat client's tool messages, or an Anthropic client's user turn of them. */
const isToolResults = (message: CanonicalMessage) => message.role === 'tool' || (message.role === 'user' && message.parts.some((part) => part.type === 'tool-result'));

/** The conversation ends in tool results, and the assistant turn of that loop did not open with signed thinking. */
function openToolLoopLacksSignedThinking(messages: readonly CanonicalMessage[]): boolean {
  const last = messages.at(-1);
  if (!last || !isToolResults(last)) return false;
  const askedAt = messages.findLastIndex((message) => message.role === 'user' && !isToolResults(message));
  const opening = messages.slice(askedAt + 1).find((message) => message.role === 'assistant')?.parts[0];
  return !(opening?.type === 'reasoning' && opening.signature);
}
