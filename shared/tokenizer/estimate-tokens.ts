/**
 * Counts tokens with a real tokenizer (o200k_base, the encoding of current OpenAI models) when an upstream
 * reports no usage. Loaded on first use only: the encoding tables are large, and most upstreams do report.
 */
let countTokensPromise: Promise<(text: string) => number> | undefined;

async function loadTokenCounter(): Promise<(text: string) => number> {
  const tokenizer = await import('gpt-tokenizer/encoding/o200k_base');
  return (text) => tokenizer.countTokens(text);
}

export async function countTokens(text: string): Promise<number> {
  if (text === '') return 0;
  countTokensPromise ??= loadTokenCounter();
  return (await countTokensPromise)(text);
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
