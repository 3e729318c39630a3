import type { CanonicalEvent } from '../../canonical/canonical-events.ts';
import type { CanonicalRequest } from '../../canonical/canonical-request.ts';
import { customToolNames, unwrapCustomToolInput } from '../../canonical/custom-tool-input.ts';
import { chatChunkSchema, type ChatChunk } from './chat-wire-types.ts';
import { parseProviderPayload } from '../../canonical/read-payload.ts';
import { mapChatFinishReason } from './chat-finish-reason.ts';
import { readChatUsage } from './chat-usage.ts';
import { mapChatErrorType } from './openai-errors.ts';

type ToolCallDelta = NonNullable<NonNullable<NonNullable<ChatChunk['choices']>[number]['delta']>['tool_calls']>[number];

interface ToolCallState {
  id: string | undefined;
  name: string | undefined;
  /** A custom tool's call: its fragments are free text. */
  custom: boolean;
  /** A custom tool of the request called as a function (a provider without custom tools): its JSON, collected. */
  wrapped: { json: string } | undefined;
  /** Argument fragments that came before the name (the call cannot start without one). */
  pendingArguments: string;
  /** The canonical index, once started. */
  index: number | undefined;
  ended: boolean;
}

/**
 * Reads an OpenAI chat completion stream, one chunk at a time, as canonical events. Only the first
 * choice is read (translated requests never ask for more). `reasoning_content` or `reasoning` deltas are
 * reasoning, `content` and `refusal` deltas text. A tool call starts once its name is known and ends when
 * the next one starts or the choice finishes, so tool calls never overlap; providers stream them one
 * after another, and a fragment for a call that has already ended is dropped. A call is new when its
 * `index` is new or when it brings a different `id` at a known index (some servers number every call 0).
 * The usage chunk (sent after the finish chunk, with `choices: []`) becomes a usage event. A stream that
 * ends with neither a finish_reason nor `[DONE]` was cut off (`cutOff`); a finish without `[DONE]` is an
 * end (some providers send none).
 * A function call of a custom tool of the translated `request` (a provider without custom tools got it as a
 * function taking one string, `input`) is a custom tool call again: its text comes as one fragment when it ends.
 */
export function createChatStreamReader(request?: CanonicalRequest) {
  const customTools = customToolNames(request);
  const calls = new Map<number, ToolCallState>();
  let openCall: ToolCallState | undefined;
  let nextIndex = 0;
  let started = false;
  let failed = false;
  /** A finish_reason or `[DONE]` came: the answer ended as its protocol ends one. */
  let ended = false;

  function start(call: ToolCallState, events: CanonicalEvent[]): void {
    if (openCall && !openCall.ended) end(openCall, events);
    call.index = nextIndex++;
    openCall = call;
    if (!call.custom && customTools.has(call.name ?? '')) call.wrapped = { json: '' };
    events.push({ type: 'tool-call-start', index: call.index, id: call.id ?? `call_${call.index}`, name: call.name ?? '', ...(call.custom || call.wrapped ? { custom: true } : {}) });
    append(call, call.pendingArguments, events);
    call.pendingArguments = '';
  }

  function append(call: ToolCallState, fragment: string, events: CanonicalEvent[]): void {
    if (!fragment || call.index === undefined) return;
    if (call.wrapped) call.wrapped.json += fragment;
    else events.push({ type: 'tool-call-delta', index: call.index, argumentsDelta: fragment });
  }

  function end(call: ToolCallState, events: CanonicalEvent[]): void {
    if (call.index === undefined) start(call, events);
    call.ended = true;
    const text = call.wrapped ? unwrapCustomToolInput(call.wrapped.json) : '';
    if (text) events.push({ type: 'tool-call-delta', index: call.index ?? 0, argumentsDelta: text });
    events.push({ type: 'tool-call-end', index: call.index ?? 0 });
  }

  function readToolCall(delta: ToolCallDelta, position: number, events: CanonicalEvent[]): void {
    const key = delta.index ?? position;
    let call = calls.get(key);
    if (!call || (delta.id && call.id && delta.id !== call.id)) {
      call = { id: undefined, name: undefined, custom: false, wrapped: undefined, pendingArguments: '', index: undefined, ended: false };
      calls.set(key, call);
    }
    call.id ||= delta.id ?? undefined;
    call.custom ||= delta.type === 'custom' || (!delta.function && !!delta.custom);
    call.name ||= (call.custom ? delta.custom?.name : delta.function?.name) ?? undefined;
    const fragment = (call.custom ? delta.custom?.input : delta.function?.arguments) ?? '';
    if (call.index === undefined) {
      call.pendingArguments += fragment;
      if (call.name) start(call, events);
    } else if (!call.ended) {
      append(call, fragment, events);
    }
  }

  function read(chunk: ChatChunk, events: CanonicalEvent[]): void {
    const choice = chunk.choices?.find((candidate) => (candidate.index ?? 0) === 0);
    const delta = choice?.delta;
    const reasoning = delta?.reasoning_content ?? delta?.reasoning;
    if (reasoning) events.push({ type: 'reasoning-delta', text: reasoning });
    if (delta?.content) events.push({ type: 'text-delta', text: delta.content });
    if (delta?.refusal) events.push({ type: 'text-delta', text: delta.refusal });
    delta?.tool_calls?.forEach((toolCall, position) => readToolCall(toolCall, position, events));
    if (choice?.finish_reason) {
      ended = true;
      for (const call of calls.values()) if (!call.ended) end(call, events);
      events.push({ type: 'finish', reason: mapChatFinishReason(choice.finish_reason), raw: choice.finish_reason });
    }
    const usage = readChatUsage(chunk.usage);
    if (usage) events.push({ type: 'usage', usage });
  }

  return {
    /** Takes one chunk (parsed JSON or the raw `data:` text; `[DONE]` is ignored); returns canonical events. */
    push(chatChunk: unknown): CanonicalEvent[] {
      if (failed) return [];
      if (typeof chatChunk === 'string' && chatChunk.trim() === '[DONE]') ended = true;
      const chunk = parseProviderPayload(chatChunkSchema, chatChunk);
      if (!chunk) return [];
      if (chunk.error) {
        failed = true;
        const { type, code, message } = chunk.error;
        return [{ type: 'error', errorType: mapChatErrorType(type, typeof code === 'string' ? code : null), message: message ?? 'The upstream stream failed.' }];
      }
      // A placeholder before the message (Azure's prompt-filter chunk: no id, no choices) starts nothing.
      if (!started && !chunk.id && !chunk.choices?.length && !chunk.usage) return [];
      const events: CanonicalEvent[] = [];
      if (!started) {
        started = true;
        events.push({ type: 'message-start', id: chunk.id ?? '', model: chunk.model ?? '' });
      }
      read(chunk, events);
      return events;
    },
    /** Whether the stream ended before a finish_reason or `[DONE]` (and not on an error chunk). */
    cutOff: () => !ended && !failed,
  };
}
