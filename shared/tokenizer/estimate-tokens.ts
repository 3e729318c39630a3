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

/** The text of chat messages as a tokenizer sees it: string contents and text parts, plus tool-call arguments. */
export function chatPromptText(messages: readonly unknown[]): string {
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
  return parts.join('\n');
}
