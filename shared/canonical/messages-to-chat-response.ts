import { GatewayError } from '../core/errors.ts';
import { anthropicMessageSchema } from '../protocols/anthropic-messages/anthropic-wire-types.ts';
import type { ChatToolCallOut } from '../protocols/openai-chat/chat-request-types.ts';
import { mapAnthropicStopReason, toChatFinishReason } from './map-finish-reason.ts';
import { parseProviderPayload } from './read-payload.ts';
import { stringifyToolInput } from './tool-arguments.ts';
import { readAnthropicUsage, renderChatUsage } from './translate-usage.ts';

export interface MessagesToChatResponseOptions {
  /** The model name the client asked for (shown instead of the upstream's id). */
  model: string;
  /** Unix seconds for `created` (the translation reads no clock). */
  created: number;
}

/**
 * An Anthropic message (the upstream's JSON answer) as a chat completion:
 * - text blocks, joined, become `content` (null when there are none, as OpenAI sends beside tool calls);
 * - tool_use blocks become `tool_calls`, numbered in order, with the input JSON-stringified;
 * - thinking blocks become `reasoning_content` (the field DeepSeek, vLLM and LiteLLM use); signatures and
 *   redacted thinking have no chat form and are dropped, as are server-tool blocks;
 * - stop_reason maps through mapAnthropicStopReason; usage counts the whole prompt (input + cache writes +
 *   cache reads) as prompt_tokens, with cache reads as prompt_tokens_details.cached_tokens.
 * The message id is kept as the completion id.
 */
export function convertMessagesResponseToChat(anthropicMessage: unknown, options: MessagesToChatResponseOptions) {
  const message = parseProviderPayload(anthropicMessageSchema, anthropicMessage);
  if (!message) {
    throw new GatewayError('upstream', 'The upstream answered with a body that is not a message.', { code: 'upstream_invalid_response' });
  }
  const texts: string[] = [];
  const reasoning: string[] = [];
  const toolCalls: ChatToolCallOut[] = [];
  for (const block of message.content ?? []) {
    if (block.type === 'text' && block.text) texts.push(block.text);
    else if (block.type === 'thinking' && block.thinking) reasoning.push(block.thinking);
    else if (block.type === 'tool_use') {
      toolCalls.push({ id: block.id ?? '', type: 'function', function: { name: block.name ?? '', arguments: stringifyToolInput(block.input) } });
    }
  }
  const usage = readAnthropicUsage(message.usage ?? {});
  return {
    id: message.id ?? '',
    object: 'chat.completion' as const,
    created: options.created,
    model: options.model,
    choices: [
      {
        index: 0,
        message: {
          role: 'assistant' as const,
          content: texts.length > 0 ? texts.join('') : null,
          ...(reasoning.length > 0 ? { reasoning_content: reasoning.join('') } : {}),
          ...(toolCalls.length > 0 ? { tool_calls: toolCalls } : {}),
          refusal: null,
        },
        logprobs: null,
        finish_reason: toChatFinishReason(mapAnthropicStopReason(message.stop_reason)),
      },
    ],
    usage: renderChatUsage(usage),
  };
}
