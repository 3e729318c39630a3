import type { CanonicalEvent } from './canonical-events.ts';
import type { CanonicalResponse } from './canonical-response.ts';

/**
 * A complete answer as the canonical stream that would have carried it, keeping the readers' contracts
 * (canonical-events.ts): the start, each part whole (reasoning, text, a tool call started, given its
 * arguments in one fragment and ended, numbered densely from 0), the finish, then the usage last, as chat
 * streams send it.
 */
export function canonicalEventsOf(response: CanonicalResponse): CanonicalEvent[] {
  const events: CanonicalEvent[] = [{ type: 'message-start', id: response.id, model: response.model }];
  let toolIndex = 0;
  for (const part of response.content) {
    if (part.type === 'text') events.push({ type: 'text-delta', text: part.text });
    else if (part.type === 'reasoning') {
      events.push({ type: 'reasoning-delta', text: part.text, ...(part.signature ? { signature: part.signature } : {}), ...(part.encrypted ? { encrypted: part.encrypted } : {}) });
    } else {
      const index = toolIndex++;
      events.push(
        { type: 'tool-call-start', index, id: part.id, name: part.name, ...(part.custom ? { custom: true } : {}) },
        { type: 'tool-call-delta', index, argumentsDelta: part.arguments },
        { type: 'tool-call-end', index },
      );
    }
  }
  events.push({
    type: 'finish',
    reason: response.finish,
    ...(response.rawFinish ? { raw: response.rawFinish } : {}),
    ...(response.stopSequence !== undefined ? { stopSequence: response.stopSequence } : {}),
  });
  if (response.usage) events.push({ type: 'usage', usage: response.usage });
  return events;
}
