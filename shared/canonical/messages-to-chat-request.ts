import { anthropicAssistantToChat, anthropicSystemToChat, anthropicUserToChat } from '../protocols/anthropic-messages/anthropic-content-to-chat.ts';
import { anthropicToolChoiceToChat, anthropicToolsToChat } from '../protocols/anthropic-messages/anthropic-tools-to-chat.ts';
import { anthropicRequestSchema } from '../protocols/anthropic-messages/anthropic-wire-types.ts';
import type { ChatCompletionRequestBody, ChatMessageOut } from '../protocols/openai-chat/chat-request-types.ts';
import { parseRequestBody } from './read-payload.ts';
import { DroppedFields, type TranslatedRequest } from './translated-request.ts';

export interface MessagesToChatRequestOptions {
  /** The upstream's model id. */
  upstreamModel: string;
}

/** Messages fields this translation reads; any other field the client set is reported as dropped. */
const translatedFields = new Set([
  'model', 'system', 'messages', 'max_tokens', 'temperature', 'top_p', 'stop_sequences', 'stream', 'tools',
  'tool_choice', 'metadata',
]);

/**
 * An Anthropic Messages request (for an OpenAI-compatible model, e.g. Claude Code on another model) as a
 * chat completion request:
 * - `system` becomes a leading system message (text blocks joined by blank lines; cache_control dropped);
 * - user turns: see anthropicUserToChat (tool results become `tool` messages right after the assistant
 *   message that called them); assistant turns: see anthropicAssistantToChat (thinking dropped);
 * - tools, tool_choice: see anthropicToolsToChat / anthropicToolChoiceToChat;
 * - stop_sequences → stop, max_tokens, temperature and top_p pass, metadata.user_id → user;
 * - `stream: true` also asks for `stream_options.include_usage`, so the stream ends with real usage.
 * top_k, thinking, service_tier, container, mcp_servers and every other field are dropped and named.
 */
export function convertMessagesRequestToChat(messagesBody: unknown, options: MessagesToChatRequestOptions): TranslatedRequest<ChatCompletionRequestBody> {
  const request = parseRequestBody(anthropicRequestSchema, messagesBody);
  const dropped = new DroppedFields();
  for (const [field, value] of Object.entries(request)) {
    if (!translatedFields.has(field) && value !== null && value !== undefined) dropped.add(field);
  }

  const messages: ChatMessageOut[] = [];
  const system = anthropicSystemToChat(request.system);
  if (system !== '') messages.push({ role: 'system', content: system });
  for (const message of request.messages) {
    if (message.role === 'user') messages.push(...anthropicUserToChat(message.content, dropped));
    else if (message.role === 'system') {
      const text = anthropicSystemToChat(message.content);
      if (text !== '') messages.push({ role: 'system', content: text });
    } else {
      const assistant = anthropicAssistantToChat(message.content, dropped);
      if (assistant) messages.push(assistant);
    }
  }

  const tools = anthropicToolsToChat(request.tools, dropped);
  const userId = request.metadata?.user_id;
  const body: ChatCompletionRequestBody = {
    model: options.upstreamModel,
    messages,
    ...(request.max_tokens ? { max_tokens: request.max_tokens } : {}),
    ...(typeof request.temperature === 'number' ? { temperature: request.temperature } : {}),
    ...(typeof request.top_p === 'number' ? { top_p: request.top_p } : {}),
    ...(request.stop_sequences && request.stop_sequences.length > 0 ? { stop: request.stop_sequences } : {}),
    ...(request.stream === true ? { stream: true, stream_options: { include_usage: true } } : {}),
    ...(request.stream === false ? { stream: false } : {}),
    ...(tools.length > 0 ? { tools } : {}),
    ...anthropicToolChoiceToChat(request.tool_choice, tools.length > 0, dropped),
    ...(userId ? { user: userId } : {}),
  };
  return { body, droppedFields: dropped.list() };
}
