import { createHash } from 'node:crypto';

/** What Converse takes as a toolUseId, in a toolUse and a toolResult alike (Bedrock's API reference). */
const VALID_TOOL_USE_ID = /^[a-zA-Z0-9_-]{1,64}$/;
const MAX_LENGTH = 64;

/**
 * A tool call id as Converse takes it. Converse refuses a request (ValidationException) holding an id outside
 * `[a-zA-Z0-9_-]{1,64}`, and clients send such ids back: the ones some of Bedrock's own models answer
 * (Kimi's `functions.read_file:1`), or another provider's from earlier turns (Codex's `call_…|fc_…`, longer
 * than 64). A valid id goes as it is; another has its other characters made `_`, is cut, and ends with 8 hex
 * digits of its SHA-256, so a call and its result still match and two ids stay two. Nothing maps back: the
 * model's next calls carry new ids.
 */
export function converseToolUseId(id: string): string {
  if (VALID_TOOL_USE_ID.test(id)) return id;
  const digest = createHash('sha256').update(id).digest('hex').slice(0, 8);
  const readable = id.replace(/[^a-zA-Z0-9_-]/g, '_').slice(0, MAX_LENGTH - digest.length - 1);
  return readable ? `${readable}_${digest}` : digest;
}
