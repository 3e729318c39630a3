import { createHash } from 'node:crypto';

/** The longest end-user id OpenAI takes (`user`, `safety_identifier`); OpenRouter takes 128. */
export const OPENAI_END_USER_MAX_LENGTH = 64;
/** The longest `metadata.user_id` Anthropic's Messages API takes. */
export const ANTHROPIC_END_USER_MAX_LENGTH = 256;

/**
 * A translated request's end-user id as its upstream takes it: a longer one is refused with a 400 (OpenAI:
 * "string too long"), and Claude Code's `metadata.user_id` is a JSON object of its device and session ids,
 * ~135 characters. Such an id goes as its SHA-256 in hex (64 characters): the same id always gives the
 * same hash, so the provider's abuse monitoring still tells users apart. The generation record keeps the
 * id the client sent.
 */
export function endUserIdWithin(user: string, maxLength: number): string {
  return user.length <= maxLength ? user : createHash('sha256').update(user).digest('hex');
}
