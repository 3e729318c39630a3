import { asJsonObject } from '../core/json-object.ts';

/**
 * Counts tokens with a real tokenizer (o200k_base, the encoding of current OpenAI models) when an upstream
 * reports no usage. Loaded on first use only: the encoding tables are large, and most upstreams do report.
 */
let countTokensPromise: Promise<(text: string) => number> | undefined;

async function loadTokenCounter(): Promise<(text: string) => number> {
  const tokenizer = await import('gpt-tokenizer/encoding/o200k_base');
  return (text) => tokenizer.countTokens(text);
}

/** Text counted exactly per request; beyond it the count is extrapolated from the part counted. */
export const EXACT_COUNT_LIMIT_CHARS = 256 * 1024;
/** The tokenizer works on slices of this size, yielding to the event loop between them. */
const SLICE_CHARS = 16 * 1024;
/** A run without whitespace longer than this is cut: BPE's cost grows with the square of a word's length. */
const LONGEST_WORD_CHARS = 512;
const LONG_WORD = new RegExp(`\\S{${LONGEST_WORD_CHARS}}`, 'g');

/**
 * Counts tokens with the o200k_base tokenizer, bounded so that no request can hold the event loop: the text
 * is counted in slices with a yield between them, words longer than LONGEST_WORD_CHARS are cut, and past
 * EXACT_COUNT_LIMIT_CHARS the count is extrapolated from the part counted (it is an estimate either way).
 */
export async function countTokens(text: string): Promise<number> {
  if (text === '') return 0;
  countTokensPromise ??= loadTokenCounter();
  const count = await countTokensPromise;
  const counted = text.length > EXACT_COUNT_LIMIT_CHARS ? text.slice(0, EXACT_COUNT_LIMIT_CHARS) : text;
  let tokens = 0;
  for (let start = 0; start < counted.length; start += SLICE_CHARS) {
    if (start > 0) await new Promise((resolve) => setImmediate(resolve));
    tokens += count(cutLongWords(counted.slice(start, start + SLICE_CHARS)));
  }
  return counted.length === text.length ? tokens : Math.ceil((tokens * text.length) / counted.length);
}

function cutLongWords(text: string): string {
  return text.replace(LONG_WORD, (word) => `${word} `);
}

/**
 * The text of a chat request as a tokenizer sees it: string contents and text parts, tool-call arguments, and
 * the tool definitions (`tools`, or the older `functions`), which the model reads as part of its prompt.
 */
export function chatPromptText(messages: readonly unknown[], tools?: unknown): string {
  const parts: string[] = [];
  for (const message of messages) {
    if (typeof message !== 'object' || message === null) continue;
    const { content, tool_calls: toolCalls } = message as { content?: unknown; tool_calls?: unknown };
    if (typeof content === 'string') parts.push(content);
    else if (Array.isArray(content)) {
      for (const part of content) {
        if (typeof part === 'object' && part !== null && 'text' in part && typeof part.text === 'string') parts.push(part.text);
      }
    }
    if (Array.isArray(toolCalls)) parts.push(JSON.stringify(toolCalls));
  }
  if (Array.isArray(tools)) for (const tool of tools as unknown[]) chatToolText(tool, parts);
  return parts.join('\n');
}

/**
 * A chat tool definition's text: name, description and parameter schema, and a custom tool's grammar. Chat
 * nests the definition under `function` or `custom`; an entry of the older `functions` is the definition.
 */
function chatToolText(tool: unknown, parts: string[]): void {
  const entry = asJsonObject(tool);
  const definition = asJsonObject(entry?.function) ?? asJsonObject(entry?.custom) ?? entry;
  if (!definition) return;
  if (typeof definition.name === 'string') parts.push(definition.name);
  if (typeof definition.description === 'string') parts.push(definition.description);
  if (definition.parameters !== undefined && definition.parameters !== null) parts.push(JSON.stringify(definition.parameters));
  const grammar = asJsonObject(asJsonObject(definition.format)?.grammar)?.definition;
  if (typeof grammar === 'string') parts.push(grammar);
}
