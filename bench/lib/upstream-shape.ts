/** The fake upstream's stream: this many chunk events, this far apart (then a usage chunk and `[DONE]`). */
export const STREAM_EVENTS = 64;
export const EVENT_GAP_MS = 20;
