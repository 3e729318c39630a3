import type { ChatContentPart, ChatMessage } from '../openai-chat/chat-wire-types.ts';

export type InputItem = Record<string, unknown>;

/**
 * The editor's chat-shaped body (Ask mode, older builds) as Responses input items, so that both of its
 * shapes take one way upstream:
 * - system and developer messages stay where they stand, as messages of their role;
 * - user content becomes input_text, input_image and input_file parts;
 * - an assistant turn becomes an output_text message (none when it has no text: the editor sends
 *   `content: []` or null beside tool calls, which the Responses API refuses), then one function_call or
 *   custom_tool_call item per call, with the call's id;
 * - a tool message becomes a function_call_output item for its call id.
 * Which calls belong to custom tools (ApplyPatch) is repaired afterwards, by the tools' names.
 */
export function inputFromChatMessages(messages: readonly ChatMessage[]): InputItem[] {
  return messages.flatMap((message): InputItem[] => {
    switch (message.role) {
      case 'system':
      case 'developer': {
        const text = textOf(message.content);
        return text ? [{ type: 'message', role: message.role, content: text }] : [];
      }
      case 'user': {
        const content = userContent(message.content);
        return content.length > 0 ? [{ type: 'message', role: 'user', content }] : [];
      }
      case 'assistant':
        return assistantItems(message);
      case 'tool':
        return [{ type: 'function_call_output', call_id: message.tool_call_id ?? '', output: toolOutput(message.content) }];
      default:
        return [];
    }
  });
}

function textOf(content: ChatMessage['content']): string {
  if (typeof content === 'string') return content;
  return (content ?? []).flatMap((part) => (part.text ? [part.text] : part.refusal ? [part.refusal] : [])).join('\n');
}

function userContent(content: ChatMessage['content']): InputItem[] {
  if (typeof content === 'string') return content ? [{ type: 'input_text', text: content }] : [];
  return (content ?? []).flatMap(userPart);
}

function userPart(part: ChatContentPart): InputItem[] {
  if (part.type === 'text' || part.type === 'input_text') return part.text ? [{ type: 'input_text', text: part.text }] : [];
  if (part.type === 'image_url' && part.image_url) {
    const url = typeof part.image_url === 'string' ? part.image_url : part.image_url.url;
    const detail = typeof part.image_url === 'object' && typeof part.image_url.detail === 'string' ? part.image_url.detail : 'auto';
    return [{ type: 'input_image', image_url: url, detail }];
  }
  if (part.type === 'file' && part.file?.file_data) {
    return [{ type: 'input_file', file_data: part.file.file_data, ...(part.file.filename ? { filename: part.file.filename } : {}) }];
  }
  // Audio and parts not known yet have no Responses form the editor uses.
  return [];
}

function assistantItems(message: ChatMessage): InputItem[] {
  const text = textOf(message.content);
  const items: InputItem[] = text ? [{ type: 'message', role: 'assistant', content: [{ type: 'output_text', text }] }] : [];
  for (const call of message.tool_calls ?? []) {
    const custom = call.type === 'custom' || (!call.function && !!call.custom);
    items.push(
      custom
        ? { type: 'custom_tool_call', call_id: call.id ?? '', name: call.custom?.name ?? '', input: call.custom?.input ?? '' }
        : { type: 'function_call', call_id: call.id ?? '', name: call.function?.name ?? '', arguments: call.function?.arguments ?? '' },
    );
  }
  return items;
}

function toolOutput(content: ChatMessage['content']): string | InputItem[] {
  if (typeof content === 'string' || content === null || content === undefined) return content ?? '';
  return content.flatMap((part) => (part.text ? [{ type: 'input_text', text: part.text }] : []));
}
