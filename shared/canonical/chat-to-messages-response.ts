import { GatewayError } from '../core/errors.ts';
import { chatCompletionSchema } from '../protocols/openai-chat/chat-wire-types.ts';
import { anthropicStopReasonFor, mapChatFinishReason } from './map-finish-reason.ts';
import { parseProviderPayload } from './read-payload.ts';
import { parseToolArguments } from './tool-arguments.ts';
import { readChatUsage, renderAnthropicUsage } from './translate-usage.ts';

export interface ChatToMessagesResponseOptions {
  /** The model name the client asked for. */
  model: string;
  /** The message id to show (`msg_…`); the upstream's completion id when not given. */
  messageId?: string;
}

export type AnthropicResponseBlock =
  | { type: 'thinking'; thinking: string; signature: string }
  | { type: 'text'; text: string }
  | { type: 'tool_use'; id: string; name: string; input: Record<string, unknown> };

/**
 * A chat completion (the upstream's JSON answer) as an Anthropic message: `reasoning_content` (or
 * `reasoning`) as a thinking block with an empty signature, content and refusal as a text block, each
 * tool call as a tool_use block (arguments parsed; see parseToolArguments for broken JSON), finish_reason
 * as stop_reason, and usage with cached prompt tokens as cache reads (input_tokens is the uncached rest).
 * Only the first choice is read: the messages → chat translation never asks for more.
 */
export function convertChatResponseToMessages(chatCompletion: unknown, options: ChatToMessagesResponseOptions) {
  const completion = parseProviderPayload(chatCompletionSchema, chatCompletion);
  const choice = completion?.choices?.[0];
  if (!completion || !choice) {
    throw new GatewayError('upstream', 'The upstream answered with a body that is not a chat completion.', { code: 'upstream_invalid_response' });
  }
  const message = choice.message ?? {};
  const content: AnthropicResponseBlock[] = [];
  const reasoning = message.reasoning_content ?? message.reasoning;
  if (reasoning) content.push({ type: 'thinking', thinking: reasoning, signature: '' });
  const text = message.content ?? message.refusal;
  if (text) content.push({ type: 'text', text });
  (message.tool_calls ?? []).forEach((call, position) => {
    content.push({ type: 'tool_use', id: call.id ?? `call_${position}`, name: call.function?.name ?? '', input: parseToolArguments(call.function?.arguments) });
  });
  const usage = readChatUsage(completion.usage ?? {});
  return {
    id: options.messageId ?? completion.id ?? '',
    type: 'message' as const,
    role: 'assistant' as const,
    model: options.model,
    content,
    stop_reason: anthropicStopReasonFor(mapChatFinishReason(choice.finish_reason), (message.tool_calls ?? []).length > 0),
    stop_sequence: null,
    usage: renderAnthropicUsage(usage),
  };
}

