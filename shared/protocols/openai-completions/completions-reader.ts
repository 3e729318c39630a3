import type { CanonicalEvent } from '../../canonical/canonical-events.ts';
import type { CanonicalResponse } from '../../canonical/canonical-response.ts';
import { parseProviderPayload } from '../../canonical/read-payload.ts';
import { GatewayError } from '../../core/errors.ts';
import { mapChatFinishReason } from '../openai-chat/chat-finish-reason.ts';
import { readChatUsage } from '../openai-chat/chat-usage.ts';
import { mapChatErrorType } from '../openai-chat/openai-errors.ts';
import type { StreamReader } from '../wire-protocol.ts';
import { completionSchema } from './completions-wire-types.ts';

/** A complete legacy completion in canonical terms: the first choice's text, its finish, the usage. */
export function readCompletion(payload: unknown): CanonicalResponse {
  const completion = parseProviderPayload(completionSchema, payload);
  if (!completion) throw new GatewayError('upstream', 'The provider answered with something that is not a completion.', { code: 'upstream_invalid_response' });
  const choice = completion.choices?.find((candidate) => (candidate.index ?? 0) === 0);
  const usage = readChatUsage(completion.usage);
  return {
    id: completion.id ?? '',
    model: completion.model ?? '',
    content: choice?.text ? [{ type: 'text', text: choice.text }] : [],
    finish: mapChatFinishReason(choice?.finish_reason),
    ...(choice?.finish_reason ? { rawFinish: choice.finish_reason } : {}),
    ...(usage ? { usage } : {}),
  };
}

/**
 * Reads a legacy completion stream, one chunk at a time, as canonical events: the first choice's text,
 * its finish, and the usage chunk (`choices: []`) the gateway always asks for; an in-band error ends it.
 */
export function createCompletionsStreamReader(): StreamReader {
  let started = false;
  let failed = false;
  return {
    push(data) {
      if (failed) return [];
      const chunk = parseProviderPayload(completionSchema, data);
      if (!chunk) return [];
      if (chunk.error) {
        failed = true;
        const { type, code, message } = chunk.error;
        return [{ type: 'error', errorType: mapChatErrorType(type, typeof code === 'string' ? code : null), message: message ?? 'The upstream stream failed.' }];
      }
      const events: CanonicalEvent[] = [];
      if (!started) {
        started = true;
        events.push({ type: 'message-start', id: chunk.id ?? '', model: chunk.model ?? '' });
      }
      const choice = chunk.choices?.find((candidate) => (candidate.index ?? 0) === 0);
      if (choice?.text) events.push({ type: 'text-delta', text: choice.text });
      if (choice?.finish_reason) events.push({ type: 'finish', reason: mapChatFinishReason(choice.finish_reason), raw: choice.finish_reason });
      const usage = readChatUsage(chunk.usage);
      if (usage) events.push({ type: 'usage', usage });
      return events;
    },
  };
}
