import type { CanonicalEvent } from './canonical-events.ts';

/** One tool call of an upstream stream, as its events came. */
interface CallState {
  id: string;
  name: string;
  custom: boolean;
  /** The input its events brought so far (shown or still held). */
  input: string;
  /** How much of `input` the canonical events have carried. */
  shown: number;
  /** Its dense canonical index, once announced. */
  index: number | undefined;
  /** Its item is finished: once announced, it ends. */
  finished: boolean;
  ended: boolean;
}

export interface CallItem {
  id: string;
  name: string;
  custom: boolean;
}

/**
 * The tool calls of an upstream stream as canonical events, one call after another: calls are numbered
 * densely in the order they are added, whatever the upstream numbers them by (keys are the reader's: a
 * Responses item id or output index, a chat call's index). Upstreams mostly stream one call at a time, but
 * deltas of parallel calls may interleave (Responses items by item id, chat calls by index on some
 * OpenAI-compatible servers), and canonical writers (Anthropic's content blocks) take one call at a time:
 * so the first unfinished call is shown as its events come, and a later one is held, then shown whole (its
 * start, everything it brought, its end when finished) once the calls before it end. Nothing a call brings
 * before it finishes is dropped.
 */
export function createToolCallSequencer() {
  const calls = new Map<string, CallState>();
  const order: CallState[] = [];
  let nextIndex = 0;

  /** The call shown as it streams: the first added that has not ended. */
  const current = () => order.find((call) => !call.ended);

  function show(call: CallState): CanonicalEvent[] {
    const events: CanonicalEvent[] = [];
    if (call.index === undefined) {
      call.index = nextIndex++;
      events.push({ type: 'tool-call-start', index: call.index, id: call.id, name: call.name, ...(call.custom ? { custom: true } : {}) });
    }
    if (call.shown < call.input.length) {
      events.push({ type: 'tool-call-delta', index: call.index, argumentsDelta: call.input.slice(call.shown) });
      call.shown = call.input.length;
    }
    if (call.finished && !call.ended) {
      call.ended = true;
      events.push({ type: 'tool-call-end', index: call.index });
    }
    return events;
  }

  /** Shows the current call's news, and, each time it ends, the next call's. */
  function flush(): CanonicalEvent[] {
    const events: CanonicalEvent[] = [];
    for (let call = current(); call; call = current()) {
      events.push(...show(call));
      if (!call.ended) break;
    }
    return events;
  }

  return {
    /** Whether the stream added any call. */
    get made(): boolean {
      return order.length > 0;
    },
    knows: (key: string) => calls.has(key),
    /** A call's item was added (under every key its later events may name it by). */
    add(keys: readonly string[], item: CallItem, input: string): CanonicalEvent[] {
      const call: CallState = { ...item, input, shown: 0, index: undefined, finished: false, ended: false };
      for (const key of keys) calls.set(key, call);
      order.push(call);
      return flush();
    },
    /** A fragment of a call's input. */
    append(key: string, fragment: string): CanonicalEvent[] {
      const call = calls.get(key);
      if (!call || call.finished || !fragment) return [];
      call.input += fragment;
      return flush();
    },
    /** A call's whole input (a `.done` event): what the deltas did not bring is added. */
    complete(key: string, whole: string | null | undefined): CanonicalEvent[] {
      const call = calls.get(key);
      if (!call || call.finished || !whole || !whole.startsWith(call.input)) return [];
      call.input = whole;
      return flush();
    },
    /** A call's item finished, with its whole input when the item carries it. */
    finish(key: string, whole: string | null | undefined): CanonicalEvent[] {
      const call = calls.get(key);
      if (!call || call.finished) return [];
      if (whole && whole.startsWith(call.input)) call.input = whole;
      call.finished = true;
      return flush();
    },
    /** The response ended: every call still open or held is shown whole and ended, in order. */
    finishAll(): CanonicalEvent[] {
      for (const call of order) call.finished = true;
      return flush();
    },
  };
}
