import type {
  AnthropicRequestBlock,
  AnthropicRequestMessage,
  AnthropicTextBlock,
  AnthropicToolResultBlock,
  AnthropicToolUseBlock,
} from '../anthropic-messages/anthropic-request-types.ts';
import { chatContentToAnthropic, chatSystemText } from './chat-content-to-anthropic.ts';
import type { ChatMessage } from './chat-wire-types.ts';
import { parseToolArguments } from '../../canonical/tool-arguments.ts';
import type { DroppedFields } from '../../canonical/translated-request.ts';

export interface AnthropicConversation {
  system: AnthropicTextBlock[];
  messages: AnthropicRequestMessage[];
}

/**
 * Chat messages as an Anthropic conversation:
 * - system and developer messages, wherever they stand, are hoisted into `system` (one text block each);
 * - tool messages become `tool_result` blocks of a user message;
 * - consecutive messages of one role are merged into one (Anthropic requires user and assistant to
 *   alternate), so the results of parallel tool calls land in a single user message;
 * - inside a user message the tool results come first (Anthropic requires them before any other block);
 * - messages left without content are omitted, and the final assistant message (a prefill) loses its
 *   trailing whitespace, which Anthropic rejects.
 */
export function chatMessagesToAnthropic(chatMessages: ChatMessage[], dropped: DroppedFields): AnthropicConversation {
  const system: AnthropicTextBlock[] = [];
  const messages: AnthropicRequestMessage[] = [];
  const append = (role: 'user' | 'assistant', blocks: AnthropicRequestBlock[]) => {
    if (blocks.length === 0) return;
    const last = messages.at(-1);
    if (last?.role === role) last.content.push(...blocks);
    else messages.push({ role, content: blocks });
  };

  for (const message of chatMessages) {
    switch (message.role) {
      case 'system':
      case 'developer':
        system.push(...chatSystemText(message.content));
        break;
      case 'user':
        append('user', chatContentToAnthropic(message.content, dropped));
        break;
      case 'assistant':
        append('assistant', [...chatContentToAnthropic(message.content, dropped), ...toolUses(message)]);
        break;
      case 'tool':
        append('user', [toolResult(message, dropped)]);
        break;
      default:
        dropped.add(`messages[].role=${message.role}`);
    }
  }
  for (const message of messages) if (message.role === 'user') putToolResultsFirst(message);
  trimFinalAssistant(messages);
  return { system, messages };
}

function toolUses(message: ChatMessage): AnthropicToolUseBlock[] {
  return (message.tool_calls ?? []).map((call, position) => ({
    type: 'tool_use',
    id: call.id ?? `call_${position}`,
    name: call.function?.name ?? '',
    input: parseToolArguments(call.function?.arguments),
  }));
}

function toolResult(message: ChatMessage, dropped: DroppedFields): AnthropicToolResultBlock {
  const toolUseId = message.tool_call_id ?? '';
  if (typeof message.content === 'string' || message.content === null || message.content === undefined) {
    return { type: 'tool_result', tool_use_id: toolUseId, content: message.content ?? '' };
  }
  const blocks = chatContentToAnthropic(message.content, dropped).filter((block) => block.type !== 'document');
  return { type: 'tool_result', tool_use_id: toolUseId, content: blocks };
}

function putToolResultsFirst(message: AnthropicRequestMessage): void {
  const results = message.content.filter((block) => block.type === 'tool_result');
  const rest = message.content.filter((block) => block.type !== 'tool_result');
  message.content = [...results, ...rest];
}

function trimFinalAssistant(messages: AnthropicRequestMessage[]): void {
  const last = messages.at(-1);
  if (last?.role !== 'assistant') return;
  const finalBlock = last.content.at(-1);
  if (finalBlock?.type !== 'text') return;
  finalBlock.text = finalBlock.text.trimEnd();
}
