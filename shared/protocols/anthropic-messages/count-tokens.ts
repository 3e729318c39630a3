import { countTokens } from '../../tokenizer/estimate-tokens.ts';
import { asJsonObject } from '../../core/json-object.ts';

/** The parts of a Messages (or count_tokens) request that make up its input. */
export interface MessagesPrompt {
  system?: unknown;
  messages: readonly unknown[];
  tools?: unknown;
}

/**
 * The text of content blocks as a tokenizer sees it: text, tool calls (name and input as JSON) and tool
 * results. Thinking blocks of earlier turns are left out, as Anthropic drops them from the context;
 * images and documents have no text to count (a count adds them apart: countMessagesTokensEstimate).
 */
function contentText(content: unknown, parts: string[]): void {
  if (typeof content === 'string') {
    parts.push(content);
    return;
  }
  if (!Array.isArray(content)) return;
  for (const item of content as unknown[]) {
    const block = asJsonObject(item);
    if (!block) continue;
    if (block.type === 'text' && typeof block.text === 'string') parts.push(block.text);
    else if (block.type === 'tool_use' || block.type === 'server_tool_use') {
      if (typeof block.name === 'string') parts.push(block.name);
      parts.push(JSON.stringify(block.input ?? {}));
    } else if (block.type === 'tool_result') contentText(block.content, parts);
    else if (block.type === 'document' && asJsonObject(block.source)?.type === 'text') parts.push(String(asJsonObject(block.source)?.data ?? ''));
  }
}

function toolText(tool: unknown, parts: string[]): void {
  const definition = asJsonObject(tool);
  if (!definition) return;
  if (typeof definition.name === 'string') parts.push(definition.name);
  if (typeof definition.description === 'string') parts.push(definition.description);
  if (definition.input_schema !== undefined) parts.push(JSON.stringify(definition.input_schema));
}

/** The input text of a Messages request: system prompt, messages and tool definitions. */
export function messagesPromptText(request: MessagesPrompt): string {
  const parts: string[] = [];
  contentText(request.system, parts);
  for (const message of request.messages) contentText(asJsonObject(message)?.content, parts);
  if (Array.isArray(request.tools)) for (const tool of request.tools as unknown[]) toolText(tool, parts);
  return parts.join('\n');
}

/**
 * An estimate of a request's input tokens for models whose provider has no count_tokens endpoint,
 * counted with the gateway's tokenizer, in Anthropic's count_tokens response shape. The caller says in
 * a response header that the number is an estimate.
 */
export async function countMessagesTokensEstimate(request: MessagesPrompt): Promise<{ input_tokens: number }> {
  const media = { images: 0, pdfPages: 0 };
  for (const message of request.messages) countMedia(asJsonObject(message)?.content, media);
  const framing = MESSAGE_FRAMING_TOKENS * request.messages.length;
  return { input_tokens: (await countTokens(messagesPromptText(request))) + framing + media.images * IMAGE_TOKENS + media.pdfPages * PDF_PAGE_TOKENS };
}

/**
 * What a count adds for what has no text to count: an image, as Claude counts one near its largest size
 * (width × height / 750, about 1,600 tokens; OpenAI's high detail is of that order too), a PDF page, as
 * Anthropic says one costs (1,500 to 3,000 tokens: text and the page as an image), and each message's
 * framing (its role and turn markers). Screenshots and documents are most of an agent's prompt when they
 * are there: left out, a count undercounted a session full of them by as much.
 */
const IMAGE_TOKENS = 1_600;
const PDF_PAGE_TOKENS = 2_000;
const MESSAGE_FRAMING_TOKENS = 4;

/** Images and PDF pages of content blocks, tool results' included. */
function countMedia(content: unknown, media: { images: number; pdfPages: number }): void {
  if (!Array.isArray(content)) return;
  for (const item of content as unknown[]) {
    const block = asJsonObject(item);
    if (block?.type === 'image') media.images += 1;
    else if (block?.type === 'document') media.pdfPages += pdfPagesOf(asJsonObject(block.source));
    else if (block?.type === 'tool_result') countMedia(block.content, media);
  }
}

/** The pages of a base64 PDF as its page objects say (`/Type /Page`), at least one; a document given otherwise counts one page. */
function pdfPagesOf(source: Record<string, unknown> | undefined): number {
  if (source?.type === 'text') return 0;
  if (source?.type !== 'base64' || typeof source.data !== 'string') return 1;
  const pages = Buffer.from(source.data, 'base64').toString('latin1').match(/\/Type\s*\/Page(?![a-z])/gi)?.length ?? 0;
  return Math.max(1, pages);
}
