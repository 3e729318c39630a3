import { mapAnthropicErrorType, mapChatErrorType, toAnthropicErrorType, toChatErrorType } from './map-error-type.ts';

interface ErrorWords {
  type: string | undefined;
  code: string | undefined;
  message: string;
}

/** The type, code and message of an error body in either protocol, or the raw text. */
function readErrorWords(body: string): ErrorWords {
  try {
    const parsed = JSON.parse(body) as { error?: { type?: unknown; code?: unknown; message?: unknown } };
    const error = parsed.error;
    if (error && typeof error === 'object') {
      return {
        type: typeof error.type === 'string' ? error.type : undefined,
        code: typeof error.code === 'string' ? error.code : undefined,
        message: typeof error.message === 'string' ? error.message : body,
      };
    }
  } catch {
    // Not JSON: the text is the message.
  }
  return { type: undefined, code: undefined, message: body.trim() || 'The provider failed.' };
}

/** An Anthropic upstream's error body, as an OpenAI chat client expects it. */
export function anthropicErrorAsChat(body: string): string {
  const words = readErrorWords(body);
  const type = toChatErrorType(mapAnthropicErrorType(words.type));
  return JSON.stringify({ error: { message: words.message, type, code: words.type ?? null, param: null } });
}

/** An OpenAI-compatible upstream's error body, as an Anthropic Messages client expects it. */
export function chatErrorAsAnthropic(body: string): string {
  const words = readErrorWords(body);
  return JSON.stringify({ type: 'error', error: { type: toAnthropicErrorType(mapChatErrorType(words.type, words.code)), message: words.message } });
}
