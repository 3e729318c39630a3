import { parseEventObject, SseEventSplitter, sseEventData } from '../http/sse-event-splitter.ts';

/**
 * One upstream stream event, decoded once: its original text (what a native pass-through forwards byte
 * for byte), its data, and the data as a JSON object when it is one (what readers and filters look at).
 */
export interface UpstreamEvent {
  raw: string;
  data: string | undefined;
  payload: Record<string, unknown> | undefined;
  /** A framing's event whose data is no JSON object where its protocol always sends one (a Bedrock chunk's bytes). */
  unreadable?: true;
}

/** Turns an upstream's bytes into whole events, whatever the framing (SSE; AWS event-stream: aws-event-stream-decoder.ts). */
export interface StreamDecoder {
  push(bytes: Uint8Array): UpstreamEvent[];
  /** What remains when the upstream ends (a last event without its terminator is still an event). */
  end(): UpstreamEvent[];
  /** Forgets a partial event (after a failure, its bytes must not merge with an error frame). */
  discard(): void;
}

export function decodeSseEvent(raw: string): UpstreamEvent {
  const data = sseEventData(raw);
  return { raw, data, payload: data === undefined ? undefined : parseEventObject(data) };
}

/**
 * An event whose data opens as a JSON object but does not parse (`data: {not json`): no protocol sends one
 * on purpose, the meter cannot read it, and a client SDK that parses every event throws on it mid-answer.
 */
export function hasBrokenJsonData(event: UpstreamEvent): boolean {
  return event.unreadable === true || (event.payload === undefined && event.data !== undefined && event.data.trimStart().startsWith('{'));
}

/** Server-sent events: whole events split at blank lines, each kept with its original bytes. */
export function createSseDecoder(): StreamDecoder {
  const decoder = new TextDecoder();
  const splitter = new SseEventSplitter();
  return {
    push: (bytes) => splitter.push(decoder.decode(bytes, { stream: true })).map(decodeSseEvent),
    end() {
      const rest = splitter.push(decoder.decode());
      const unterminated = splitter.flush();
      if (unterminated) rest.push(unterminated);
      return rest.map(decodeSseEvent);
    },
    discard: () => void splitter.flush(),
  };
}
