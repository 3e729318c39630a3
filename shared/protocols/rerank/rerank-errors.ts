import { asJsonObject, parseJsonObject } from '../../core/json-object.ts';
import { readErrorWords, type UpstreamErrorAnswer } from '../../transport/upstream-errors.ts';
import { mapChatErrorType } from '../openai-chat/openai-errors.ts';
import { errorTypeOfStatus } from '../upstream-refusal.ts';
import type { ErrorWords } from '../wire-protocol.ts';

/**
 * What a rerank provider's error answer says, for OpenAI's error format (the `/v1/*` route group's), with the
 * provider's status: no rerank dialect speaks it (Cohere says `{message}`; Jina and Voyage, FastAPI servers,
 * `{detail}`, a text or a list of `{loc, msg}`), and a client must not have to know which answered. Its kind
 * comes from the status when the body does not name one.
 */
export function readRerankErrorWords(answer: UpstreamErrorAnswer): ErrorWords {
  const words = readErrorWords(answer.body);
  const message = detailMessage(parseJsonObject(answer.body)?.detail) ?? words.message;
  const type = words.type || words.code ? mapChatErrorType(words.type, words.code) : errorTypeOfStatus(answer.status);
  return {
    type,
    message: message.trim() || `The provider refused the request (HTTP ${answer.status}).`,
    ...(words.code ? { code: words.code } : {}),
    ...(words.param ? { param: words.param } : {}),
  };
}

/** FastAPI's `detail`: a text, or validation errors `[{loc: ["body", "top_n"], msg}]` named by the field at fault. */
function detailMessage(detail: unknown): string | undefined {
  if (typeof detail === 'string') return detail;
  if (!Array.isArray(detail)) return undefined;
  const messages = detail.flatMap((item: unknown) => {
    const entry = asJsonObject(item);
    if (typeof entry?.msg !== 'string') return [];
    const field = Array.isArray(entry.loc) ? entry.loc.filter((part) => part !== 'body').join('.') : '';
    return [field ? `${field}: ${entry.msg}` : entry.msg];
  });
  return messages.length > 0 ? messages.join('; ') : undefined;
}
