import type { CanonicalErrorType, CanonicalEvent } from '../../canonical/canonical-events.ts';
import type { CanonicalRequest } from '../../canonical/canonical-request.ts';
import { customToolNames, unwrapCustomToolInput } from '../../canonical/custom-tool-input.ts';
import { createToolCallSequencer } from '../../canonical/tool-call-sequencer.ts';
import { parseJsonObject } from '../../core/json-object.ts';
import { chatChunkSchema, type ChatChunk } from './chat-wire-types.ts';
import { parseProviderPayload } from '../../canonical/read-payload.ts';
import { mapChatFinishReason } from './chat-finish-reason.ts';
import { readChatUsage } from './chat-usage.ts';
import { errorTypeOfStatus } from '../upstream-refusal.ts';
import { mapChatErrorType } from './openai-errors.ts';

type ToolCallDelta = NonNullable<NonNullable<NonNullable<ChatChunk['choices']>[number]['delta']>['tool_calls']>[number];

interface ToolCallState {
  /** Its key in the sequencer: a call of its own, since a new id can take over a known index. */
  key: string;
  id: string | undefined;
  name: string | undefined;
  /** A custom tool's call: its fragments are free text. */
  custom: boolean;
  /** A custom tool of the request called as a function (a provider without custom tools): its JSON is held. */
  wrapped: boolean;
  /** Its fragments so far (those before the name too: the call cannot be announced without one). */
  arguments: string;
  /** Handed to the sequencer, once its name is known (or the call ends without one). */
  announced: boolean;
  /** It can take no more: its fragments are all in. */
  finished: boolean;
}

/**
 * Reads an OpenAI chat completion stream, one chunk at a time, as canonical events. Only the first
 * choice is read (translated requests never ask for more). `reasoning_content` or `reasoning` deltas are
 * reasoning, `content` and `refusal` deltas text. A tool call is announced once its name is known, and
 * calls are shown one after another (createToolCallSequencer): the first unfinished call as it streams, a
 * later one held, then shown whole once the calls before it end. Most providers stream calls one after
 * another, but some OpenAI-compatible servers interleave parallel calls (both named, then arguments for
 * each in turn): no fragment of theirs is dropped. A call ends when the choice finishes, when a new `id`
 * takes over its `index` (some servers number every call 0), or, once a later call has started, as soon as
 * its arguments form a whole JSON object (a fragment more would break it): so calls streamed one after
 * another are shown as they stream. A call is new when its `index` is new or when it brings a different
 * `id` at a known index.
 * The usage chunk (sent after the finish chunk, with `choices: []`) becomes a usage event. A stream that
 * ends with neither a finish_reason nor `[DONE]` was cut off (`cutOff`); a finish without `[DONE]` is an
 * end (some providers send none).
 * A function call of a custom tool of the translated `request` (a provider without custom tools got it as a
 * function taking one string, `input`) is a custom tool call again: its text comes as one fragment when it ends.
 */
export function createChatStreamReader(request?: CanonicalRequest) {
  const customTools = customToolNames(request);
  const sequencer = createToolCallSequencer();
  const calls = new Map<number, ToolCallState>();
  const announced: ToolCallState[] = [];
  let nextKey = 0;
  let started = false;
  let failed = false;
  /** A finish_reason or `[DONE]` came: the answer ended as its protocol ends one. */
  let ended = false;

  function announce(call: ToolCallState): CanonicalEvent[] {
    call.announced = true;
    call.wrapped = !call.custom && customTools.has(call.name ?? '');
    // The sequencer numbers calls in the order they are added: this one's canonical index.
    const id = call.id ?? `call_${announced.length}`;
    announced.push(call);
    return sequencer.add([call.key], { id, name: call.name ?? '', custom: call.custom || call.wrapped }, call.wrapped ? '' : call.arguments);
  }

  function finish(call: ToolCallState): CanonicalEvent[] {
    const events = call.announced ? [] : announce(call);
    call.finished = true;
    events.push(...sequencer.finish(call.key, call.wrapped ? unwrapCustomToolInput(call.arguments) : null));
    return events;
  }

  /** Calls before the last announced whose JSON arguments are whole: nothing more can come for them. */
  function finishWholeCalls(): CanonicalEvent[] {
    return announced.slice(0, -1).flatMap((call) => (!call.finished && !call.custom && isWholeJsonObject(call.arguments) ? finish(call) : []));
  }

  function readToolCall(delta: ToolCallDelta, position: number): CanonicalEvent[] {
    const index = delta.index ?? position;
    let call = calls.get(index);
    const events: CanonicalEvent[] = [];
    if (call && delta.id && call.id && delta.id !== call.id) {
      // Nothing can reach the call this one takes the index over from.
      if (!call.finished) events.push(...finish(call));
      call = undefined;
    }
    if (!call) {
      call = { key: String(nextKey++), id: undefined, name: undefined, custom: false, wrapped: false, arguments: '', announced: false, finished: false };
      calls.set(index, call);
    }
    call.id ||= delta.id ?? undefined;
    call.custom ||= delta.type === 'custom' || (!delta.function && !!delta.custom);
    call.name ||= (call.custom ? delta.custom?.name : delta.function?.name) ?? undefined;
    const fragment = (call.custom ? delta.custom?.input : delta.function?.arguments) ?? '';
    if (call.finished) return events;
    call.arguments += fragment;
    if (!call.announced) {
      if (call.name) events.push(...announce(call));
    } else if (!call.wrapped) {
      events.push(...sequencer.append(call.key, fragment));
    }
    return events;
  }

  function read(chunk: ChatChunk, events: CanonicalEvent[]): void {
    const choice = chunk.choices?.find((candidate) => (candidate.index ?? 0) === 0);
    const delta = choice?.delta;
    const reasoning = delta?.reasoning_content ?? delta?.reasoning;
    if (reasoning) events.push({ type: 'reasoning-delta', text: reasoning });
    if (delta?.content) events.push({ type: 'text-delta', text: delta.content });
    if (delta?.refusal) events.push({ type: 'text-delta', text: delta.refusal });
    if (delta?.tool_calls) {
      delta.tool_calls.forEach((toolCall, position) => events.push(...readToolCall(toolCall, position)));
      events.push(...finishWholeCalls());
    }
    if (choice?.finish_reason) {
      ended = true;
      for (const call of calls.values()) if (!call.finished) events.push(...finish(call));
      events.push({ type: 'finish', reason: mapChatFinishReason(choice.finish_reason), raw: choice.native_finish_reason ?? choice.finish_reason });
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
        return [{ type: 'error', errorType: streamErrorType(type, code), message: message ?? 'The upstream stream failed.' }];
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

/** Arguments that already form a whole JSON object (the cheap test first: they are re-read as they grow). */
function isWholeJsonObject(text: string): boolean {
  return text.trimEnd().endsWith('}') && parseJsonObject(text) !== undefined;
}

/**
 * An error chunk's kind: by its type or code in OpenAI's words, else by the HTTP status OpenRouter gives as
 * its numeric `code` (429, 402, 503: its error events carry no type), else a server error.
 */
function streamErrorType(type: string | null | undefined, code: string | number | null | undefined): CanonicalErrorType {
  const named = mapChatErrorType(type, typeof code === 'string' ? code : null);
  const status = Number(code);
  return named === 'server' && Number.isInteger(status) && status >= 400 && status < 600 ? errorTypeOfStatus(status) : named;
}
