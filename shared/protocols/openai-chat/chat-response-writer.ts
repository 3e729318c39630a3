import type { CanonicalResponse } from '../../canonical/canonical-response.ts';
import { ZERO_USAGE } from '../../core/token-usage.ts';
import type { Presentation } from '../wire-protocol.ts';
import { toChatFinishReason } from './chat-finish-reason.ts';
import { reasoningExcluded, reasoningFieldFor } from './chat-request.ts';
import { chatToolCallOf, type ChatToolCallOut } from './chat-request-types.ts';
import { renderChatUsage, stringifyWithUsageCost } from './chat-usage.ts';

/**
 * The id of a chat completion the gateway writes: the upstream's own, else one made of the request's id
 * (never empty: OpenAI's SDK only takes a chunk's usage when the chunk has an id).
 */
export function chatAnswerId(upstreamId: string | undefined, responseId: string): string {
  return upstreamId || `chatcmpl-${responseId}`;
}

/**
 * A canonical answer as a chat completion: texts joined into `content` (null when there are none, as
 * OpenAI sends beside tool calls), tool calls numbered in order, reasoning as `reasoning_content` (the
 * field DeepSeek, vLLM and LiteLLM use) or, for a client that spoke OpenRouter's reasoning settings,
 * `reasoning` (reasoningFieldFor; signatures have no chat form; none when the client excluded it), the
 * finish reason, and usage counting
 * the whole prompt, with `cost` when the presentation injects it. The upstream's id is kept as the completion id.
 */
export function writeChatResponse(response: CanonicalResponse, presentation: Presentation): string {
  const texts: string[] = [];
  const reasoning: string[] = [];
  const toolCalls: ChatToolCallOut[] = [];
  const hideReasoning = reasoningExcluded(presentation.clientBody);
  for (const part of response.content) {
    if (part.type === 'text') texts.push(part.text);
    else if (part.type === 'reasoning' && part.text && !hideReasoning) reasoning.push(part.text);
    else if (part.type === 'tool-call') toolCalls.push(chatToolCallOf(part));
  }
  const usage = response.usage ?? ZERO_USAGE;
  const completion = {
    id: chatAnswerId(response.id, presentation.responseId),
    object: 'chat.completion',
    created: presentation.created,
    model: response.model || presentation.model,
    choices: [
      {
        index: 0,
        message: {
          role: 'assistant',
          content: texts.length > 0 ? texts.join('') : null,
          ...(reasoning.length > 0 ? { [reasoningFieldFor(presentation.clientBody)]: reasoning.join('') } : {}),
          ...(toolCalls.length > 0 ? { tool_calls: toolCalls } : {}),
          refusal: null,
        },
        logprobs: null,
        finish_reason: toChatFinishReason(response.finish === 'stop' && toolCalls.length > 0 ? 'tool-calls' : response.finish),
      },
    ],
  };
  if (presentation.injectCost) return stringifyWithUsageCost(completion, renderChatUsage(usage), presentation.priceUsd(usage));
  return JSON.stringify({ ...completion, usage: renderChatUsage(usage) });
}
