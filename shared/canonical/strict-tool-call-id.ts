import { createHash } from 'node:crypto';

/** What Anthropic's Messages API (`^[a-zA-Z0-9_-]+$`) and Bedrock's Converse (the same, 1 to 64) take as a tool call id. */
const STRICT_TOOL_CALL_ID = /^[a-zA-Z0-9_-]{1,64}$/;
const MAX_LENGTH = 64;

/**
 * A tool call id as Anthropic's API and Bedrock's Converse take it, in a call and in its result alike: both
 * refuse a whole request holding another. Clients send such ids back from earlier turns: ones some of
 * Bedrock's own models answer (Kimi's `functions.read_file:1`), or another provider's (Codex's
 * `call_…|fc_…`, longer than 64). A valid id goes as it is; another has its other characters made `_`, is
 * cut, and ends with 8 hex digits of its SHA-256, so a call and its result still match and two ids stay
 * two. Nothing maps back: the model's next calls carry new ids.
 */
export function strictToolCallId(id: string): string {
  if (STRICT_TOOL_CALL_ID.test(id)) return id;
  const digest = createHash('sha256').update(id).digest('hex').slice(0, 8);
  const readable = id.replace(/[^a-zA-Z0-9_-]/g, '_').slice(0, MAX_LENGTH - digest.length - 1);
  return readable ? `${readable}_${digest}` : digest;
}
