import type { AnthropicBlock } from './anthropic-wire-types.ts';
import type { ChatContentPartOut, ChatMessageOut, ChatToolCallOut } from '../openai-chat/chat-request-types.ts';
import { stringifyToolInput } from '../../canonical/tool-arguments.ts';
import type { DroppedFields } from '../../canonical/translated-request.ts';

type AnthropicContent = string | AnthropicBlock[];

/** An image or document block as a chat content part (base64 → a `data:` URL), or undefined. */
function mediaPart(block: AnthropicBlock): ChatContentPartOut | undefined {
  const source = block.source;
  if (!source) return undefined;
  const dataUrl = source.type === 'base64' && source.data ? `data:${source.media_type ?? ''};base64,${source.data}` : undefined;
  if (block.type === 'image') {
    const url = dataUrl ?? (source.type === 'url' ? source.url : undefined);
    return url ? { type: 'image_url', image_url: { url } } : undefined;
  }
  if (block.type === 'document') {
    if (source.type === 'text' && source.data) return { type: 'text', text: source.data };
    if (dataUrl) return { type: 'file', file: { file_data: dataUrl, ...(block.title ? { filename: block.title } : {}) } };
  }
  return undefined;
}

/** A tool_result's content as the tool message's text, and its images (a tool message holds only text). */
function toolResultContent(content: unknown): { text: string; images: ChatContentPartOut[] } {
  if (typeof content === 'string') return { text: content, images: [] };
  const texts: string[] = [];
  const images: ChatContentPartOut[] = [];
  for (const block of Array.isArray(content) ? (content as AnthropicBlock[]) : []) {
    if (block.type === 'text' && block.text) texts.push(block.text);
    const media = block.type === 'image' ? mediaPart(block) : undefined;
    if (media) images.push(media);
  }
  return { text: texts.join('\n'), images };
}

/**
 * A user turn as chat messages: each tool_result becomes a `tool` message (in order, first, so they follow
 * the assistant message that made the calls, as chat requires), then one user message with the rest:
 * text, images (as image_url parts, base64 as `data:` URLs), documents (PDF as a file part, plain text as
 * text) and the images tool results returned. A lone text part is sent as a plain string.
 */
export function anthropicUserToChat(content: AnthropicContent, dropped: DroppedFields): ChatMessageOut[] {
  if (typeof content === 'string') return [{ role: 'user', content }];
  const toolMessages: ChatMessageOut[] = [];
  const parts: ChatContentPartOut[] = [];
  for (const block of content) {
    if (block.type === 'tool_result') {
      const result = toolResultContent(block.content);
      toolMessages.push({ role: 'tool', tool_call_id: block.tool_use_id ?? '', content: result.text });
      parts.push(...result.images);
    } else if (block.type === 'text') {
      if (block.text) parts.push({ type: 'text', text: block.text });
    } else {
      const media = mediaPart(block);
      if (media) parts.push(media);
      else dropped.add(`messages[].content[type=${block.type}]`);
    }
  }
  if (parts.length === 0) return toolMessages;
  const only = parts[0];
  const userContent = parts.length === 1 && only?.type === 'text' ? only.text : parts;
  return [...toolMessages, { role: 'user', content: userContent }];
}

/**
 * An assistant turn as one chat message: text blocks joined into `content`, tool_use blocks as
 * `tool_calls` (input JSON-stringified). Thinking, redacted thinking and server-tool blocks have no chat
 * form and are dropped.
 */
export function anthropicAssistantToChat(content: AnthropicContent, dropped: DroppedFields): ChatMessageOut | undefined {
  if (typeof content === 'string') return { role: 'assistant', content };
  const texts: string[] = [];
  const toolCalls: ChatToolCallOut[] = [];
  for (const block of content) {
    if (block.type === 'text') texts.push(block.text ?? '');
    else if (block.type === 'tool_use') {
      toolCalls.push({ id: block.id ?? '', type: 'function', function: { name: block.name ?? '', arguments: stringifyToolInput(block.input) } });
    } else dropped.add(`messages[].content[type=${block.type}]`);
  }
  const text = texts.join('');
  if (text === '' && toolCalls.length === 0) return undefined;
  return { role: 'assistant', content: text === '' ? null : text, ...(toolCalls.length > 0 ? { tool_calls: toolCalls } : {}) };
}

/** Anthropic's `system` (a string or text blocks) as one system message's text; blocks are joined by blank lines. */
export function anthropicSystemToChat(system: AnthropicContent | null | undefined): string {
  if (system === null || system === undefined) return '';
  if (typeof system === 'string') return system;
  return system.flatMap((block) => (block.type === 'text' && block.text ? [block.text] : [])).join('\n\n');
}
