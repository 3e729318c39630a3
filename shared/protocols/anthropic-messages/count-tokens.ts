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
 * images and documents have no text to count (the estimate leaves them out).
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
  return { input_tokens: await countTokens(messagesPromptText(request)) };
}
