/**
 * A Messages client sends its earlier thinking back with the block's `signature`, opaque to it (Claude Code
 * does, for every turn of a tool loop). When the thinking came from OpenAI's Responses API (a translation),
 * the gateway puts OpenAI's encrypted reasoning there, marked with this prefix, so that the next turn can
 * give it back to OpenAI as a reasoning item: with `store: false` OpenAI keeps nothing, and a reasoning model
 * would otherwise start its reasoning over at every tool call. Anthropic's own signatures never start with it.
 * The inverse of reasoning-carrier.ts (Anthropic's signature carried in a Responses client's `encrypted_content`).
 */
const OPENAI_REASONING_PREFIX = 'gateway-openai-reasoning:';

/** The `signature` of a thinking block: Anthropic's own, else OpenAI's encrypted reasoning carried, else ''. */
export function thinkingSignatureOf(reasoning: { signature?: string | undefined; encrypted?: string | undefined }): string {
  if (reasoning.signature) return reasoning.signature;
  return reasoning.encrypted ? OPENAI_REASONING_PREFIX + reasoning.encrypted : '';
}

/** OpenAI's encrypted reasoning a thinking block's signature carries, or undefined for another signature. */
export function carriedOpenAiReasoning(signature: string | null | undefined): string | undefined {
  return signature?.startsWith(OPENAI_REASONING_PREFIX) ? signature.slice(OPENAI_REASONING_PREFIX.length) : undefined;
}

function isCarriedReasoningBlock(block: unknown): boolean {
  const record = block as { type?: unknown; signature?: unknown } | null;
  return record?.type === 'thinking' && typeof record.signature === 'string' && record.signature.startsWith(OPENAI_REASONING_PREFIX);
}

function carriesReasoning(message: unknown): boolean {
  const content = (message as { content?: unknown } | null)?.content;
  return Array.isArray(content) && content.some(isCarriedReasoningBlock);
}

/**
 * A conversation as a Claude model may read it: thinking OpenAI did (a client that changed models mid-way
 * sends it back) is no thinking Anthropic signed, and Anthropic refuses a thinking block whose signature it
 * did not make. The messages as they are when none carries such thinking (no copy on the way of every request).
 */
export function withoutCarriedOpenAiReasoning(messages: unknown[]): unknown[] {
  if (!messages.some(carriesReasoning)) return messages;
  return messages.map((message) =>
    carriesReasoning(message) ? { ...(message as object), content: ((message as { content: unknown[] }).content).filter((block) => !isCarriedReasoningBlock(block)) } : message,
  );
}
