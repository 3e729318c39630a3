import type { CanonicalEvent } from '../../canonical/canonical-events.ts';
import { parseProviderPayload } from '../../canonical/read-payload.ts';
import { readReasoningCarrier } from './reasoning-carrier.ts';
import { mapResponsesErrorType } from './responses-errors.ts';
import { mapResponsesStatus } from './responses-status.ts';
import { readResponsesUsage } from './responses-usage.ts';
import { responsesStreamEventSchema, type ResponsesObject, type ResponsesOutputItem, type ResponsesStreamEvent } from './responses-wire-types.ts';

interface ToolCallState {
  index: number;
  /** The input streamed so far (a `.done` or `output_item.done` event completes what the deltas did not bring). */
  streamed: string;
  ended: boolean;
}

/**
 * Reads a Responses stream, one event's data at a time, as canonical events:
 * - response.created starts the message (the response id and model); the terminal event
 *   (response.completed or response.incomplete) brings the usage and the finish, a tool-calls finish when
 *   the response made calls;
 * - output_text and refusal deltas are text; reasoning summary deltas (a blank line between summary parts)
 *   and reasoning text deltas are reasoning, and a finished reasoning item's encrypted content follows as
 *   a reasoning event of its own;
 * - function and custom tool calls are numbered densely in the order their items are added; their
 *   argument or input deltas follow; an item that ends without deltas (some servers send only the `.done`
 *   event or the whole item) gives its input as one fragment. Calls never overlap: a call still open when
 *   the next one starts is ended, as OpenAI streams them one after another;
 * - an `error` event, or response.failed, is the stream's error; nothing is read after it.
 * Items of hosted tools, keep-alives and event types not known yet are skipped.
 */
export function createResponsesStreamReader() {
  const calls = new Map<number, ToolCallState>();
  let openCall: ToolCallState | undefined;
  let nextToolIndex = 0;
  let started = false;
  let failed = false;

  function startCall(outputIndex: number, item: ResponsesOutputItem): CanonicalEvent[] {
    const events = endOpenCall();
    const call: ToolCallState = { index: nextToolIndex++, streamed: '', ended: false };
    calls.set(outputIndex, call);
    openCall = call;
    const custom = item.type === 'custom_tool_call';
    events.push({ type: 'tool-call-start', index: call.index, id: item.call_id ?? item.id ?? `call_${call.index}`, name: item.name ?? '', ...(custom ? { custom } : {}) });
    events.push(...appendInput(call, (custom ? item.input : item.arguments) ?? ''));
    return events;
  }

  function endOpenCall(): CanonicalEvent[] {
    if (!openCall || openCall.ended) return [];
    openCall.ended = true;
    return [{ type: 'tool-call-end', index: openCall.index }];
  }

  function appendInput(call: ToolCallState | undefined, fragment: string): CanonicalEvent[] {
    if (!call || call.ended || !fragment) return [];
    call.streamed += fragment;
    return [{ type: 'tool-call-delta', index: call.index, argumentsDelta: fragment }];
  }

  /** The part of a call's whole input its deltas have not brought yet (all of it, when none came). */
  function completeInput(call: ToolCallState | undefined, whole: string | null | undefined): CanonicalEvent[] {
    if (!call || !whole || !whole.startsWith(call.streamed)) return [];
    return appendInput(call, whole.slice(call.streamed.length));
  }

  function itemDone(outputIndex: number, item: ResponsesOutputItem): CanonicalEvent[] {
    if (item.type === 'reasoning') {
      const carried = readReasoningCarrier(item.encrypted_content);
      return carried ? [{ type: 'reasoning-delta', text: '', ...carried }] : [];
    }
    const call = calls.get(outputIndex);
    if (!call) return [];
    const events = completeInput(call, item.type === 'custom_tool_call' ? item.input : item.arguments);
    if (!call.ended) {
      call.ended = true;
      events.push({ type: 'tool-call-end', index: call.index });
    }
    return events;
  }

  function finish(response: ResponsesObject | null | undefined): CanonicalEvent[] {
    const events = endOpenCall();
    const usage = readResponsesUsage(response?.usage);
    if (usage) events.push({ type: 'usage', usage });
    const end = mapResponsesStatus(response?.status, response?.incomplete_details?.reason, nextToolIndex > 0);
    events.push({ type: 'finish', reason: end.reason, ...(end.raw ? { raw: end.raw } : {}) });
    return events;
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
        return event.item?.type === 'function_call' || event.item?.type === 'custom_tool_call' ? startCall(outputIndex, event.item) : [];
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
        return appendInput(calls.get(outputIndex), event.delta ?? '');
      case 'response.function_call_arguments.done':
        return completeInput(calls.get(outputIndex), event.arguments);
      case 'response.custom_tool_call_input.done':
        return completeInput(calls.get(outputIndex), event.input);
      case 'response.output_item.done':
        return event.item ? itemDone(outputIndex, event.item) : [];
      case 'response.completed':
      case 'response.incomplete':
        return finish(event.response);
      case 'response.failed':
        return fail(event.response?.error?.type, event.response?.error?.code, event.response?.error?.message);
      case 'error':
        return fail(event.error?.type, event.error?.code ?? event.code, event.error?.message ?? event.message);
      default:
        return [];
    }
  }

  return {
    /** Takes one event's data (parsed JSON or its raw text); returns the canonical events it means. */
    push(eventData: unknown): CanonicalEvent[] {
      if (failed) return [];
      const event = parseProviderPayload(responsesStreamEventSchema, eventData);
      if (!event) return [];
      const events = read(event);
      const first = events[0]?.type;
      if (!started && first !== undefined && first !== 'message-start' && first !== 'error') events.unshift({ type: 'message-start', id: '', model: '' });
      if (events.length > 0) started = true;
      return events;
    },
  };
}
