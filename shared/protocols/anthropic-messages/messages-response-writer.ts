import type { CanonicalResponse } from '../../canonical/canonical-response.ts';
import { jsonToolCallInput } from '../../canonical/custom-tool-input.ts';
import { ZERO_USAGE } from '../../core/token-usage.ts';
import { stringifyWithUsageCost } from '../openai-chat/chat-usage.ts';
import type { Presentation } from '../wire-protocol.ts';
import { anthropicStopOf } from './messages-stop-reason.ts';
import { renderAnthropicUsage } from './messages-usage.ts';
import { thinkingSignatureOf } from './openai-reasoning-signature.ts';

/** The id of a message the gateway writes: made of the request's id (an upstream's of another protocol would not read as Anthropic's). */
export function messagesAnswerId(_upstreamId: string | undefined, responseId: string): string {
  return `msg_${responseId}`;
}

/**
 * A canonical answer as an Anthropic message: reasoning as a thinking block (OpenAI's encrypted reasoning
 * carried as its signature, openai-reasoning-signature.ts; an empty one when the upstream gave neither), text blocks, tool calls as tool_use blocks (arguments parsed; see jsonToolCallInput
 * for broken JSON; a custom tool's text as its `input`), the stop reason (and stop sequence), and usage with cache reads apart (input_tokens is the uncached rest),
 * with `cost` when the presentation injects it.
 */
export function writeMessagesResponse(response: CanonicalResponse, presentation: Presentation): string {
  const content = response.content.map((part) => {
    if (part.type === 'reasoning') return { type: 'thinking', thinking: part.text, signature: thinkingSignatureOf(part) };
    if (part.type === 'text') return { type: 'text', text: part.text };
    return { type: 'tool_use', id: part.id, name: part.name, input: jsonToolCallInput(part) };
  });
  const madeToolCalls = response.content.some((part) => part.type === 'tool-call');
  const usage = response.usage ?? ZERO_USAGE;
  const message = {
    id: messagesAnswerId(response.id, presentation.responseId),
    type: 'message',
    role: 'assistant',
    model: response.model || presentation.model,
    content,
    ...anthropicStopOf(response.finish, madeToolCalls, response.stopSequence),
    usage: renderAnthropicUsage(usage),
  };
  if (presentation.injectCost) return stringifyWithUsageCost(message, message.usage, presentation.priceUsd(usage));
  return JSON.stringify(message);
}
