import type { AnthropicDocumentBlock, AnthropicImageBlock, AnthropicTextBlock } from '../anthropic-messages/anthropic-request-types.ts';
import type { ChatContentPart } from './chat-wire-types.ts';
import type { DroppedFields } from '../../canonical/translated-request.ts';

export type AnthropicContentBlock = AnthropicTextBlock | AnthropicImageBlock | AnthropicDocumentBlock;

const DATA_URL = /^data:([^;,]+);base64,(.*)$/s;

/**
 * An image URL as an Anthropic image block: `data:` URLs become base64 sources, http(s) URLs url sources.
 * Anything else (a file id, a relative path) has no Anthropic form and is dropped.
 */
export function chatImageToAnthropic(url: string): AnthropicImageBlock | undefined {
  const dataUrl = DATA_URL.exec(url);
  if (dataUrl) return { type: 'image', source: { type: 'base64', media_type: dataUrl[1] ?? '', data: dataUrl[2] ?? '' } };
  if (/^https?:\/\//i.test(url)) return { type: 'image', source: { type: 'url', url } };
  return undefined;
}

/** A chat `file` part holding a base64 PDF as an Anthropic document block (other files have no Anthropic form). */
function chatFileToAnthropic(part: ChatContentPart): AnthropicDocumentBlock | undefined {
  const dataUrl = DATA_URL.exec(part.file?.file_data ?? '');
  if (!dataUrl || dataUrl[1] !== 'application/pdf') return undefined;
  const title = part.file?.filename;
  return { type: 'document', source: { type: 'base64', media_type: 'application/pdf', data: dataUrl[2] ?? '' }, ...(title ? { title } : {}) };
}

/** Anthropic rejects text blocks that are empty or only whitespace, so those are left out. */
function textBlock(text: string | null | undefined): AnthropicTextBlock | undefined {
  return text && text.trim() !== '' ? { type: 'text', text } : undefined;
}

/**
 * A chat message's content as Anthropic blocks: text (and an assistant's refusal) as text, images, PDF
 * files as documents. Audio and unknown parts are dropped and reported.
 */
export function chatContentToAnthropic(content: string | ChatContentPart[] | null | undefined, dropped: DroppedFields): AnthropicContentBlock[] {
  if (content === null || content === undefined) return [];
  if (typeof content === 'string') return [textBlock(content)].filter((block) => block !== undefined);
  const blocks: AnthropicContentBlock[] = [];
  for (const part of content) {
    const block = chatPartToAnthropic(part);
    if (block) blocks.push(block);
    else if (!['text', 'refusal'].includes(part.type)) dropped.add(`messages[].content[type=${part.type}]`);
  }
  return blocks;
}

function chatPartToAnthropic(part: ChatContentPart): AnthropicContentBlock | undefined {
  switch (part.type) {
    case 'text':
      return textBlock(part.text);
    case 'refusal':
      return textBlock(part.refusal);
    case 'image_url': {
      const url = typeof part.image_url === 'string' ? part.image_url : part.image_url?.url;
      return url ? chatImageToAnthropic(url) : undefined;
    }
    case 'file':
      return chatFileToAnthropic(part);
    default:
      return undefined;
  }
}

/** The text of a system or developer message (its text parts, one block each). */
export function chatSystemText(content: string | ChatContentPart[] | null | undefined): AnthropicTextBlock[] {
  if (content === null || content === undefined) return [];
  const texts = typeof content === 'string' ? [content] : content.map((part) => (part.type === 'text' ? part.text : undefined));
  return texts.map(textBlock).filter((block) => block !== undefined);
}
