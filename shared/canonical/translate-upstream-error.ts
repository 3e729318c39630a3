import { readErrorWords } from '../transport/upstream-errors.ts';
import { mapAnthropicErrorType, mapChatErrorType, toAnthropicErrorType, toChatErrorType } from './map-error-type.ts';

/** The error's words, with a message even for an empty body. */
function wordsOf(body: string) {
  const words = readErrorWords(body);
  return { ...words, message: words.message.trim() || 'The provider failed.' };
}

/** An Anthropic upstream's error body, as an OpenAI chat client expects it. */
export function anthropicErrorAsChat(body: string): string {
  const words = wordsOf(body);
  const type = toChatErrorType(mapAnthropicErrorType(words.type));
  return JSON.stringify({ error: { message: words.message, type, code: words.type ?? null, param: null } });
}

/** An OpenAI-compatible upstream's error body, as an Anthropic Messages client expects it. */
export function chatErrorAsAnthropic(body: string): string {
  const words = wordsOf(body);
  return JSON.stringify({ type: 'error', error: { type: toAnthropicErrorType(mapChatErrorType(words.type, words.code)), message: words.message } });
}
