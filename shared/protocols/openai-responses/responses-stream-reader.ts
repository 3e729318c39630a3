import type { CanonicalEvent } from '../../canonical/canonical-events.ts';
import { parseProviderPayload } from '../../canonical/read-payload.ts';
import { readReasoningCarrier } from './reasoning-carrier.ts';
import { mapResponsesErrorType } from './responses-errors.ts';
import { mapResponsesStatus } from './responses-status.ts';
import { createToolCallSequencer } from '../../canonical/tool-call-sequencer.ts';
import { readResponseObjectUsage } from './responses-usage.ts';
import { responsesStreamEventSchema, type ResponsesObject, type ResponsesOutputItem, type ResponsesStreamEvent } from './responses-wire-types.ts';

/**
 * Reads a Responses stream, one event's data at a time, as canonical events:
 * - response.created starts the message (the response id and model); the terminal event
 *   (response.completed or response.incomplete) brings the usage and the finish, a tool-calls finish when
 *   the response made calls;
 * - output_text and refusal deltas are text; reasoning summary deltas (a blank line between summary parts)
 *   and reasoning text deltas are reasoning, and a finished reasoning item's encrypted content follows as
 *   a reasoning event of its own;
 * - function and custom tool calls are numbered densely in the order their items are added, and shown one
 *   after another even when their deltas interleave (see createToolCallSequencer); an item that ends
 *   without deltas (some servers send only the `.done` event or the whole item) gives its input as one
 *   fragment, and a call item seen only when done is announced then;
 * - a terminal event after no content at all (a server that streams nothing but the end) is read from the
 *   response's `output`;
 * - an `error` event, or response.failed, is the stream's error; nothing is read after it but the usage of
 *   the response.failed that ends it (what the provider counted);
 * - a stream that ends before its terminal event (response.completed, response.incomplete) or a failure
 *   was cut off (`cutOff`), however cleanly the connection closed: what came is no complete answer.
 * Items of hosted tools, keep-alives and event types not known yet are skipped.
 */
export function createResponsesStreamReader() {
  const calls = createToolCallSequencer();
  let started = false;
  let sawContent = false;
  let failed = false;
  let failedUsageRead = false;
  let ended = false;

  /** The keys a call's events may name it by: its item id, and its output index. */
  function keysOf(itemId: string | null | undefined, outputIndex: number): string[] {
    return itemId ? [itemId, `#${outputIndex}`] : [`#${outputIndex}`];
  }

  /** The key of a call event: its item id when known, else its output index. */
  function keyOf(itemId: string | null | undefined, outputIndex: number): string {
    return itemId && calls.knows(itemId) ? itemId : `#${outputIndex}`;
  }

  function isCall(item: ResponsesOutputItem): boolean {
    return item.type === 'function_call' || item.type === 'custom_tool_call';
  }

  function addCall(outputIndex: number, item: ResponsesOutputItem): CanonicalEvent[] {
    const custom = item.type === 'custom_tool_call';
    const id = item.call_id ?? item.id ?? `call_${outputIndex}`;
    return calls.add(keysOf(item.id, outputIndex), { id, name: item.name ?? '', custom }, (custom ? item.input : item.arguments) ?? '');
  }

  function itemDone(outputIndex: number, item: ResponsesOutputItem): CanonicalEvent[] {
    if (item.type === 'reasoning') {
      const carried = readReasoningCarrier(item.encrypted_content);
      return carried ? [{ type: 'reasoning-delta', text: '', ...carried }] : [];
    }
    if (!isCall(item)) return [];
    // A call announced only by its finished item is shown whole.
    const events = calls.knows(keyOf(item.id, outputIndex)) ? [] : addCall(outputIndex, item);
    events.push(...calls.finish(keyOf(item.id, outputIndex), item.type === 'custom_tool_call' ? item.input : item.arguments));
    return events;
  }

  function finish(response: ResponsesObject | null | undefined): CanonicalEvent[] {
    ended = true;
    const events = sawContent ? [] : readOutput(response?.output ?? []);
    events.push(...calls.finishAll());
    const usage = readResponseObjectUsage(response);
    if (usage) events.push({ type: 'usage', usage });
    const end = mapResponsesStatus(response?.status, response?.incomplete_details?.reason, calls.made);
    events.push({ type: 'finish', reason: end.reason, ...(end.raw ? { raw: end.raw } : {}) });
    return events;
  }

  /** A response's output items as the events their stream would have brought. */
  function readOutput(output: readonly ResponsesOutputItem[]): CanonicalEvent[] {
    return output.flatMap((item, outputIndex): CanonicalEvent[] => {
      if (isCall(item)) return [...addCall(outputIndex, item), ...calls.finish(keyOf(item.id, outputIndex), null)];
      if (item.type === 'message') return (item.content ?? []).flatMap((part) => (part.text || part.refusal ? [{ type: 'text-delta' as const, index: outputIndex, text: part.text || part.refusal || '' }] : []));
      const summary = (item.summary ?? []).flatMap((part) => (part.text ? [part.text] : [])).join('\n\n');
      return item.type === 'reasoning' && summary ? [{ type: 'reasoning-delta', text: summary }] : [];
    });
  }

  /** What a failed response reports it used (billed as the provider counted it), read once. */
  function failedUsage(response: ResponsesObject | null | undefined): CanonicalEvent[] {
    failedUsageRead = true;
    const usage = readResponseObjectUsage(response);
    return usage ? [{ type: 'usage', usage }] : [];
  }

  function fail(type: string | null | undefined, code: string | null | undefined, message: string | null | undefined): CanonicalEvent[] {
    failed = true;
    return [{ type: 'error', errorType: mapResponsesErrorType(type, code), message: message || 'The upstream stream failed.' }];
  }

  function read(event: ResponsesStreamEvent): CanonicalEvent[] {
    const outputIndex = event.output_index ?? 0;
    switch (event.type) {
      case 'response.created':
        return [{ type: 'message-start', id: event.response?.id ?? '', model: event.response?.model ?? '' }];
      case 'response.output_item.added':
        if (event.item?.type === 'web_search_call') return [{ type: 'web-search' }];
        return event.item && isCall(event.item) ? addCall(outputIndex, event.item) : [];
      case 'response.output_text.delta':
      case 'response.refusal.delta':
        return event.delta ? [{ type: 'text-delta', index: outputIndex, text: event.delta }] : [];
      case 'response.reasoning_summary_part.added':
        return (event.summary_index ?? 0) > 0 ? [{ type: 'reasoning-delta', text: '\n\n' }] : [];
      case 'response.reasoning_summary_text.delta':
      case 'response.reasoning_text.delta':
        return event.delta ? [{ type: 'reasoning-delta', text: event.delta }] : [];
      case 'response.function_call_arguments.delta':
      case 'response.custom_tool_call_input.delta':
        return calls.append(keyOf(event.item_id, outputIndex), event.delta ?? '');
      case 'response.function_call_arguments.done':
        return calls.complete(keyOf(event.item_id, outputIndex), event.arguments);
      case 'response.custom_tool_call_input.done':
        return calls.complete(keyOf(event.item_id, outputIndex), event.input);
      case 'response.output_item.done':
        return event.item ? itemDone(outputIndex, event.item) : [];
      case 'response.completed':
      case 'response.incomplete':
        return finish(event.response);
      case 'response.failed':
        return [...fail(event.response?.error?.type, event.response?.error?.code, event.response?.error?.message), ...failedUsage(event.response)];
      case 'error':
        return fail(event.error?.type, event.error?.code ?? event.code, event.error?.message ?? event.message);
      default:
        return [];
    }
  }

  return {
    /** Takes one event's data (parsed JSON or its raw text); returns the canonical events it means. */
    push(eventData: unknown): CanonicalEvent[] {
      if (failed && failedUsageRead) return [];
      const event = parseProviderPayload(responsesStreamEventSchema, eventData);
      if (!event) return [];
      // After an `error` event, the response.failed that follows is read for its usage alone.
      if (failed) return event.type === 'response.failed' ? failedUsage(event.response) : [];
      const events = read(event);
      if (events.some((item) => item.type !== 'message-start' && item.type !== 'usage' && item.type !== 'finish')) sawContent = true;
      const first = events[0]?.type;
      if (!started && first !== undefined && first !== 'message-start' && first !== 'error') events.unshift({ type: 'message-start', id: '', model: '' });
      if (events.length > 0) started = true;
      return events;
    },
    cutOff: () => !ended && !failed,
  };
}
