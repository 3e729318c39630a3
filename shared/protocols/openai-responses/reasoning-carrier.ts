import { asJsonObject } from '../../core/json-object.ts';

/**
 * A Responses client sends reasoning back as `encrypted_content`, opaque to it. When the reasoning came
 * from Anthropic, the gateway puts the thinking block's signature there, marked with this prefix, so the
 * next turn can return the thinking block to Anthropic with its signature (which Anthropic requires of
 * earlier thinking when tools were used). OpenAI's own encrypted content never starts with it.
 */
const ANTHROPIC_SIGNATURE_PREFIX = 'gateway-anthropic-signature:';

/** What a Responses request's `include` names to be given reasoning's encrypted content. */
export const ENCRYPTED_REASONING_INCLUDE = 'reasoning.encrypted_content';

/**
 * Whether a Responses client asked for reasoning's `encrypted_content`: OpenAI sends it only then, and so do
 * translated answers. The gateway needs it from no other client: the carried signature comes back only from
 * a client that asked (Codex does), and a turn without it goes to Anthropic without that thinking block.
 */
export function asksForEncryptedReasoning(clientBody: Readonly<Record<string, unknown>>): boolean {
  return Array.isArray(clientBody.include) && clientBody.include.includes(ENCRYPTED_REASONING_INCLUDE);
}

/** The reasoning's carried proof: an Anthropic signature the gateway wrapped, or OpenAI's encrypted content. */
export function readReasoningCarrier(encryptedContent: string | null | undefined): { signature: string } | { encrypted: string } | undefined {
  if (!encryptedContent) return undefined;
  if (encryptedContent.startsWith(ANTHROPIC_SIGNATURE_PREFIX)) return { signature: encryptedContent.slice(ANTHROPIC_SIGNATURE_PREFIX.length) };
  return { encrypted: encryptedContent };
}

/** The `encrypted_content` of a reasoning item: OpenAI's encrypted content as it came, or an Anthropic signature wrapped. */
export function writeReasoningCarrier(reasoning: { signature?: string | undefined; encrypted?: string | undefined }): string | undefined {
  if (reasoning.encrypted) return reasoning.encrypted;
  return reasoning.signature ? ANTHROPIC_SIGNATURE_PREFIX + reasoning.signature : undefined;
}

/**
 * Whether an input item is reasoning the gateway translated from Anthropic's thinking (its `encrypted_content`
 * a carried signature): a client sends it back to whichever model serves its next turn.
 */
export function isCarriedAnthropicReasoning(item: unknown): boolean {
  const record = asJsonObject(item);
  return record?.type === 'reasoning' && typeof record.encrypted_content === 'string' && record.encrypted_content.startsWith(ANTHROPIC_SIGNATURE_PREFIX);
}
