import type { TokenUsage } from '../core/token-usage.ts';

/**
 * The canonical stream between the protocols the gateway speaks. Every stream translation is a reader
 * (one protocol's stream events → canonical events) followed by a writer (canonical events → the other
 * protocol's wire frames), so each protocol is understood once, in one place.
 *
 * Contracts every reader keeps:
 * - `message-start` comes before any content event (readers emit it on the first upstream event).
 * - Tool calls are numbered densely from 0 in the order they start (`index`), whatever the source used:
 *   Anthropic numbers content blocks (text and thinking included); OpenAI chat numbers tool calls only.
 * - A tool call's deltas come after its `tool-call-start` and before its `tool-call-end`.
 * - `usage` carries the totals so far: the last one wins, it is never added to the previous one.
 * - After `error` the reader emits nothing more.
 */
export type CanonicalEvent =
  | MessageStartEvent
  | TextDeltaEvent
  | ReasoningDeltaEvent
  | ToolCallStartEvent
  | ToolCallDeltaEvent
  | ToolCallEndEvent
  | UsageEvent
  | WebSearchEvent
  | FinishEvent
  | ErrorEvent;

/** The upstream opened a message. `id` and `model` are the upstream's own (possibly empty). */
export interface MessageStartEvent {
  type: 'message-start';
  id: string;
  model: string;
  /** Usage known at the start (Anthropic sends the input tokens here); provisional until a `usage` event. */
  usage?: TokenUsage;
}

/** Visible answer text. `index` is the source's block index when it has one (informational only). */
export interface TextDeltaEvent {
  type: 'text-delta';
  index?: number;
  text: string;
}

/**
 * Reasoning ("thinking") text. `signature` is Anthropic's opaque thinking signature and `encrypted` OpenAI's
 * encrypted reasoning (Responses' `encrypted_content`), when they arrive: what lets a client send the
 * reasoning back on the next turn.
 */
export interface ReasoningDeltaEvent {
  type: 'reasoning-delta';
  text: string;
  signature?: string;
  encrypted?: string;
}

/** A tool call begins: its dense tool-call index, the call id and the function name. */
export interface ToolCallStartEvent {
  type: 'tool-call-start';
  index: number;
  id: string;
  name: string;
  /** A custom tool (OpenAI): its input is free text rather than JSON arguments. */
  custom?: boolean;
}

/** A fragment of a tool call's arguments (JSON text, or a custom tool's free text); fragments concatenate. */
export interface ToolCallDeltaEvent {
  type: 'tool-call-delta';
  index: number;
  argumentsDelta: string;
}

/** The tool call's arguments are complete. */
export interface ToolCallEndEvent {
  type: 'tool-call-end';
  index: number;
}

/** The usage totals so far (the last `usage` event of a stream is the final usage). */
export interface UsageEvent {
  type: 'usage';
  usage: TokenUsage;
}

/**
 * The provider ran a web search for the model (Anthropic's `server_tool_use` block, OpenAI's
 * `web_search_call` item), which it bills per search: counted as it passes, so that a stream which breaks
 * off before its final usage still records its searches. No writer renders it.
 */
export interface WebSearchEvent {
  type: 'web-search';
}

/** Why generation stopped, in protocol-neutral words; `raw` is the source's own value. */
export type FinishReason = 'stop' | 'length' | 'tool-calls' | 'content-filter' | 'error' | 'other';

export interface FinishEvent {
  type: 'finish';
  reason: FinishReason;
  raw?: string;
  /**
   * Present when generation stopped at one of the request's stop sequences (`reason` is then `stop`): the
   * sequence that matched, or null when the upstream does not say which. Only Anthropic's protocol has a
   * word for such a stop (`stop_sequence`); the others say `stop`.
   */
  stopSequence?: string | null;
}

/** Protocol-neutral error kinds; each writer renders them in its own protocol's words. */
export type CanonicalErrorType =
  | 'invalid-request'
  | 'authentication'
  | 'permission'
  | 'not-found'
  | 'request-too-large'
  | 'rate-limit'
  | 'billing'
  | 'overloaded'
  | 'timeout'
  | 'server';

/** The upstream reported an error inside the stream (after its HTTP status was already sent). */
export interface ErrorEvent {
  type: 'error';
  errorType: CanonicalErrorType;
  message: string;
}
