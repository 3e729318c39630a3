import type { AnthropicRequestMessage } from './anthropic-request-types.ts';

const isToolResults = (message: AnthropicRequestMessage) => message.role === 'user' && message.content.some((block) => block.type === 'tool_result');

/**
 * Whether the conversation is inside a tool-use loop whose assistant turn did not start with its (signed)
 * thinking block. Anthropic refuses thinking then ("a final assistant message must start with a thinking
 * block … To avoid this requirement, disable thinking"): a tool-use loop is one assistant turn, which must
 * keep the thinking it started with, and clients that speak another protocol cannot send the block back
 * (chat clients and the editor get its text at most, never its signature). The turn is the messages after
 * the last user message that is not tool results; it is open when the conversation ends in tool results.
 */
export function toolLoopLacksThinking(messages: readonly AnthropicRequestMessage[]): boolean {
  const last = messages.at(-1);
  if (!last || !isToolResults(last)) return false;
  const turnAskedBy = messages.findLastIndex((message) => message.role === 'user' && !isToolResults(message));
  const opening = messages.slice(turnAskedBy + 1).find((message) => message.role === 'assistant');
  return opening !== undefined && opening.content[0]?.type !== 'thinking';
}
