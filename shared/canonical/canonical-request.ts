import type { DroppedFields } from './dropped-fields.ts';

/**
 * A generation request in protocol-neutral terms: what every request reader produces and every request
 * writer consumes, so that a client protocol reaches an upstream protocol through one reader and one
 * writer. Fields a reader found no place for, and those a writer cannot express, are named in `dropped`.
 */
export interface CanonicalRequest {
  /** Instructions before the conversation (chat's leading system messages, Anthropic's `system`, Responses' `instructions`). */
  system: string[];
  /** Indexes of `system` texts the client marked as the end of a prompt prefix to cache (CacheMark). */
  systemCache?: number[];
  messages: CanonicalMessage[];
  tools: CanonicalTool[];
  toolChoice?: CanonicalToolChoice;
  /** False when the client asked for one tool call at a time. */
  parallelToolCalls?: boolean;
  maxOutputTokens?: number;
  temperature?: number;
  topP?: number;
  stop?: string[];
  stream: boolean;
  /**
   * How hard a reasoning model should think, in OpenAI's effort words, or an explicit token budget.
   * `onlyIfModelReasons`: read from a protocol whose clients ask for it whatever the model (Anthropic's
   * thinking), so it goes only to models known to reason, and is dropped and named for the others.
   */
  reasoning?: { effort?: string; budgetTokens?: number; summary?: string; onlyIfModelReasons?: true };
  /** Structured output: a JSON object, or one matching a schema. */
  responseFormat?: { type: 'json_object' } | { type: 'json_schema'; name: string; schema: Record<string, unknown>; strict?: boolean };
  /** The end user, for the provider's abuse monitoring. */
  user?: string;
  dropped: DroppedFields;
}

/** A turn of the conversation. `system` turns stand between other turns (reminders an agent inserts). */
export interface CanonicalMessage {
  role: 'system' | 'user' | 'assistant' | 'tool';
  parts: CanonicalPart[];
}

/**
 * A client's prompt-caching breakpoint (Anthropic's `cache_control`, OpenRouter's on chat content parts):
 * the prompt up to and including what carries it is worth caching. Writers that can ask for caching do
 * (Anthropic's `cache_control`, Converse's `cachePoint` after it); the others drop and name it.
 */
export interface CacheMark {
  cache?: true;
}

export type CanonicalPart = CanonicalPartContent & CacheMark;

type CanonicalPartContent =
  | { type: 'text'; text: string }
  /** An image by URL: http(s), or a `data:` URL holding base64. */
  | { type: 'image'; url: string }
  /** A file as a `data:` URL (PDFs), or plain text (a text document). */
  | { type: 'file'; dataUrl?: string; text?: string; filename?: string }
  /** Reasoning an assistant turn carried; `signature` (Anthropic) or `encrypted` (OpenAI) lets it be sent back. */
  | { type: 'reasoning'; text: string; signature?: string; encrypted?: string }
  /** A tool call the assistant made; `arguments` is JSON text for function tools, free text for custom tools. */
  | { type: 'tool-call'; id: string; name: string; arguments: string; custom?: boolean }
  /** A tool's answer to a call; `content` holds text and images. */
  | { type: 'tool-result'; callId: string; content: Array<{ type: 'text'; text: string } | { type: 'image'; url: string }>; isError?: boolean; custom?: boolean };

/** A tool the model may call: a function with a JSON schema, or a custom tool taking free text (OpenAI). */
export interface CanonicalTool extends CacheMark {
  name: string;
  description?: string;
  /** JSON schema of a function tool's arguments. */
  parameters?: Record<string, unknown>;
  /** A custom tool: its input is free text, optionally constrained by a grammar. */
  custom?: { format?: Record<string, unknown> };
  strict?: boolean;
}

export type CanonicalToolChoice = 'auto' | 'none' | 'required' | { name: string };
