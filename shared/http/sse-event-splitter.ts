import { parseJsonObject } from '../core/json-object.ts';

/**
 * Splits decoded SSE text into whole events, each kept with its original bytes and terminator so
 * events the gateway does not touch reach the client exactly as the upstream sent them. Events end at a
 * blank line: "\n\n", "\r\n\r\n" or "\r\r".
 */
export class SseEventSplitter {
  private pending = '';

  push(text: string): string[] {
    this.pending += text;
    const events: string[] = [];
    for (;;) {
      const end = findEventEnd(this.pending);
      if (end < 0) break;
      events.push(this.pending.slice(0, end));
      this.pending = this.pending.slice(end);
    }
    return events;
  }

  /** Whatever is left when the stream ends (an unterminated last event). */
  flush(): string {
    const rest = this.pending;
    this.pending = '';
    return rest;
  }
}

function findEventEnd(text: string): number {
  let best = -1;
  for (const terminator of ['\n\n', '\r\n\r\n', '\r\r']) {
    const index = text.indexOf(terminator);
    if (index >= 0 && (best < 0 || index + terminator.length < best)) best = index + terminator.length;
  }
  return best;
}

/** The `data` of an event (its data lines joined by "\n"), or undefined for comments and data-less events. */
export function sseEventData(event: string): string | undefined {
  let data: string | undefined;
  for (const line of event.split(/\r\n|\r|\n/)) {
    if (!line.startsWith('data')) continue;
    const colon = line.indexOf(':');
    const field = colon < 0 ? line : line.slice(0, colon);
    if (field !== 'data') continue;
    let value = colon < 0 ? '' : line.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    data = data === undefined ? value : `${data}\n${value}`;
  }
  return data;
}

/** An event's data as a JSON object, or undefined for `[DONE]`, comments and anything that is not one. */
export function parseEventObject(data: string): Record<string, unknown> | undefined {
  // Cheap first: most non-object events (`[DONE]`, comments) are told apart without parsing.
  return data.trimStart().startsWith('{') ? parseJsonObject(data) : undefined;
}
