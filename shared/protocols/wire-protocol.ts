import type { CanonicalErrorType, CanonicalEvent } from '../canonical/canonical-events.ts';
import type { CanonicalRequest } from '../canonical/canonical-request.ts';
import type { CanonicalResponse } from '../canonical/canonical-response.ts';
import type { GatewayError } from '../core/errors.ts';
import type { ClientProtocolId, ConversationProtocolId } from '../core/project-config.ts';
import type { TokenUsage } from '../core/token-usage.ts';
import type { GatewayRequest, GatewayResponse } from '../http/gateway-http.ts';
import type { StreamDecoder, UpstreamEvent } from '../transport/stream-decoder.ts';
import type { UpstreamErrorAnswer } from '../transport/upstream-errors.ts';

/**
 * One wire protocol (OpenAI chat completions, Anthropic messages, Bedrock's Converse, …): everything the
 * gateway knows about it, in one module. As an upstream protocol it says where and how to send a request
 * and how to read what comes back; as a client protocol it reads a client's request and writes answers and
 * errors in the client's words. Translation between two protocols is always one side's reader and the
 * other's writer around the canonical model (shared/canonical), so adding a protocol is adding one module.
 * A protocol only providers speak (the Bedrock runtime's) is an UpstreamProtocol alone; one only clients
 * speak (the editor client's chat completions) is a ClientDialect.
 */
export interface WireProtocol extends UpstreamProtocol, ClientProtocolSide {
  readonly id: ClientProtocolId;
  /** A native complete answer as the client sees it: unchanged, or with the usage the presentation asks for. */
  presentNativeResponse(text: string, payload: Record<string, unknown>, usage: TokenUsage, presentation: Presentation): string;
  /** A native stream as the client sees it: the upstream's frames, usage shown or hidden as the presentation asks. */
  createPassThrough(presentation: Presentation): ClientStream;
}

/** A protocol as the gateway speaks it with a provider. */
export interface UpstreamProtocol {
  readonly id: ConversationProtocolId;
  /** The path below a provider's base URL, e.g. `/chat/completions`. */
  upstreamPath(call: UpstreamCallShape): string;
  /** The protocol's own headers (not the credential, which the transport adds per provider). */
  upstreamHeaders(client: GatewayRequest['headers'], streaming: boolean): Record<string, string>;
  /**
   * Native pass-through, for the client protocol whose bodies and stream events this protocol carries
   * unchanged (its own; Anthropic's Messages inside Bedrock's InvokeModel); absent when none does.
   */
  native?: NativeCarriage;
  /** A translated request in this protocol's body, in the terms the provider takes (`features`). */
  writeRequest(request: CanonicalRequest, upstreamModel: string, features: UpstreamFeatures): Record<string, unknown>;
  /** Whether a complete answer has this protocol's shape (an error object in its place has not): what is relayed or read. */
  isCompleteAnswer(payload: Record<string, unknown>): boolean;
  /**
   * A complete answer in canonical terms (throws an upstream GatewayError when it is not one). `request` is
   * the translated request it answers, so that what the writer encoded on the way out (a custom tool's free
   * text inside a JSON object) is decoded on the way back; absent for a native answer.
   */
  readResponse(payload: unknown, request?: CanonicalRequest): CanonicalResponse;
  /** How this protocol's streams are framed (SSE, or AWS event-stream, whose codec loads on first use). */
  createStreamDecoder(): StreamDecoder | Promise<StreamDecoder>;
  /** The content type of this protocol's streams: a 200 of another type to a streamed request is no stream. */
  upstreamStreamContentType: string;
  /** Reads the protocol's stream events as canonical events, one upstream event at a time (`request` as for readResponse). */
  createStreamReader(request?: CanonicalRequest): StreamReader;
  /** What an error answer of this protocol says, in canonical words. */
  readErrorBody(answer: UpstreamErrorAnswer): ErrorWords;
  /**
   * The answer with the HTTP status its failure means, for a protocol that names its errors otherwise
   * (Bedrock's error types: a model not ready is a 503 to fail over from, whatever status came with it).
   */
  interpretErrorAnswer?(answer: UpstreamErrorAnswer): UpstreamErrorAnswer;
}

/**
 * How an upstream protocol carries a client protocol's requests natively. Which client protocol it carries
 * is the registry's to say (registry.ts), known before the protocol loads.
 */
export interface NativeCarriage {
  /**
   * The client's body for the upstream, with the upstream's model id, routing-only fields removed, and
   * whatever the gateway needs to meter (e.g. stream usage) asked for.
   */
  requestBody(body: Record<string, unknown>, upstreamModel: string, client: GatewayRequest['headers'], features: NativeFeatures): string;
  /**
   * Whether the body uses OpenAI's custom tools (a tool or an earlier call), which a provider without
   * them refuses: such a body reaches it translated instead. Absent: the protocol has no custom tools.
   */
  usesCustomTools?(body: Record<string, unknown>): boolean;
}

/**
 * What a provider takes beyond what every provider of its protocol takes, from the provider catalogue: the
 * bridge and the request writer follow it, and readers decode what the writer encoded for want of it.
 */
export interface UpstreamFeatures {
  /** OpenAI's custom (free-text) tools in chat completions; without, they go as JSON tools taking one string, `input`. */
  customTools: boolean;
  /**
   * OpenAI's own API (OpenAI, Azure OpenAI): an answer's cap is `max_completion_tokens`, which every model
   * of it takes and its reasoning models require (they refuse `max_tokens` with a 400).
   */
  maxCompletionTokens: boolean;
  /**
   * Reads OpenRouter's `reasoning` object in chat completions (OpenRouter). Any other provider is sent its
   * effort as `reasoning_effort` instead: OpenAI and Azure refuse the object with a 400.
   */
  reasoningObject: boolean;
  /**
   * Whether the model is one of OpenAI's reasoning kind (`reasoning_effort`, no sampling parameters, no
   * `stop`; a translation goes to the Responses API where the provider serves it): the admin's mark
   * (`model allow … --reasoning`), else told by its id (reasoning-models.ts), as the pipeline resolves it;
   * absent (a writer called alone), told by the id.
   */
  reasoningModel?: boolean;
  /** The admin's own mark of that (`model allow … --reasoning yes|no`), undefined when the admin set none. */
  reasoningMarked?: boolean;
  /** The model's largest answer, in tokens (the admin's `--max-output-tokens`, else the known table's): a translated cap above it is lowered to it (output-cap.ts). */
  outputTokenLimit?: number;
}

/** What of the provider's features a native body follows (bridge.ts makes a native bridge once per value). */
export type NativeFeatures = Pick<UpstreamFeatures, 'maxCompletionTokens' | 'reasoningObject' | 'reasoningModel' | 'reasoningMarked'>;

/** What every client protocol does, whether or not some provider speaks it too. */
export interface ClientProtocolSide {
  /** A client body (already validated by the endpoint's parser) in canonical terms. */
  readRequest(body: Record<string, unknown>): CanonicalRequest;
  /** Whether the client asked to see usage in the stream (it is metered regardless). */
  clientAskedForStreamUsage(body: Record<string, unknown>): boolean;
  /** A translated complete answer, serialised in this protocol. */
  writeResponse(response: CanonicalResponse, presentation: Presentation): string;
  /**
   * The id this protocol's writers give an answer (writeResponse, createStreamWriter), from the upstream's
   * own id and the presentation's `responseId`: the id the client finds in the body and may look its
   * generation up by.
   */
  answerId(upstreamId: string | undefined, responseId: string): string;
  /** Canonical events as this protocol's stream frames (a translated stream). */
  createStreamWriter(presentation: Presentation): ClientStream;
  /** An upstream's error words rendered as this protocol's error body. */
  writeErrorBody(words: ErrorWords): string;
  /**
   * The client's answer to an upstream that refused the request (its words, its status or 502), given a JSON
   * body: callers go through relayUpstreamRefusal (upstream-refusal.ts), which answers a body of text itself.
   */
  relayUpstreamError(answer: UpstreamErrorAnswer): GatewayResponse;
  /**
   * When set, a request whose only attempt failed gets that upstream's own answer (Claude Code's recovery
   * matches Anthropic's wording) instead of the gateway's error.
   */
  relaysFailedAttempt: boolean;
  /** A gateway error as this protocol's error response. */
  renderError(error: GatewayError, headers: Record<string, string>): GatewayResponse;
  /** A gateway error after the first streamed byte, as this protocol's in-band error frame. */
  streamErrorFrame(error: GatewayError): string;
  /** The content type of a stream of this protocol. */
  streamContentType: string;
}

/**
 * A client dialect: a protocol only clients speak, a variant of an upstream protocol (the editor client's
 * chat completions, which carry Responses bodies). No provider speaks it, so it is never native; where a
 * provider speaks one of the protocols it `rewrites`, its body goes there rewritten directly (keeping
 * what the canonical model has no place for: encrypted reasoning, cache keys, grammar tools), and the
 * answer comes back through the canonical model; any other provider is reached by translation.
 */
export interface ClientDialect extends ClientProtocolSide {
  readonly id: ClientDialectId;
  /** The upstream protocols its bodies become without the canonical model, in order of preference. */
  rewrites: readonly DialectRewrite[];
}

export type ClientDialectId = 'editor-chat';

/** A dialect's body as an upstream protocol's body, for the upstream's model id. */
export interface DialectRewrite {
  upstream: ConversationProtocolId;
  body(body: Record<string, unknown>, upstreamModel: string, features: NativeFeatures): Record<string, unknown>;
}

/** The protocol an endpoint's clients speak: a wire protocol (natively reachable) or a client dialect. */
export type ClientProtocol = WireProtocol | ClientDialect;

export function isClientDialect(protocol: ClientProtocol): protocol is ClientDialect {
  return 'rewrites' in protocol;
}

export interface UpstreamCallShape {
  streaming: boolean;
  upstreamModel: string;
}

/** An error body's meaning in protocol-neutral words. */
export interface ErrorWords {
  type: CanonicalErrorType;
  message: string;
  /** The upstream's own code (else its type), when it had one. */
  code?: string;
  /** The request field the upstream found fault with, when it named one (OpenAI's `param`). */
  param?: string;
  /**
   * The prompt does not fit the model's context window. Each protocol words this its own way, and agents
   * recover on their own protocol's words (Codex compacts on OpenAI's code `context_length_exceeded`).
   */
  contextWindowExceeded?: boolean;
}

export interface StreamReader {
  /** Takes one event's data: parsed JSON, or its raw text (`[DONE]` and comments are ignored). */
  push(data: unknown): CanonicalEvent[];
  /**
   * Once the upstream has ended: whether its stream stopped before its protocol's end (an answer cut off,
   * which the relay then fails). Not after an in-band error, which ended the stream in its own words.
   * Absent: the reader cannot tell, and an end is an end.
   */
  cutOff?(): boolean;
}

/** What a client sees of a stream: frames for each upstream event, and the closing frames. */
export interface ClientStream {
  /** The upstream event (for pass-through) and what it meant (for translation): text to send ('' for nothing). */
  push(event: UpstreamEvent, canonical: readonly CanonicalEvent[]): string | Promise<string>;
  /** The frames that close the stream once the upstream ended (not after a failure). */
  end(): string | Promise<string>;
  /**
   * The frames that end the stream when the gateway fails after the first byte (the upstream broke off),
   * for a protocol whose failure frame depends on what was sent (Responses numbers its events and closes
   * the response it opened); absent, the protocol's stateless `streamErrorFrame`. A promise when the frames
   * show the request's final usage (`Presentation.finalUsage`), as the editor's usage chunk does.
   */
  fail?(error: GatewayError): string | Promise<string>;
  /**
   * Present on a stream that writes nothing for the upstream's opening events, so that the response's
   * status can wait for the first content (the editor client shows an HTTP error, not an in-band one): the
   * failure that came before anything was written, which the pipeline then answers with its status.
   */
  heldFailure?(): GatewayError | undefined;
  /**
   * Tells a stream that holds its failures (heldFailure) that its status went out before any content (a
   * heartbeat committed it while the upstream was silent): a failure from then on can no longer be answered
   * with a status, so it is written in-band.
   */
  statusCommitted?(): void;
}

/** How an answer is shown to the client: the names it asked for, and whether and how usage appears. */
export interface Presentation {
  /**
   * The model named in translated answers when the upstream names none: the provider's own model id, the
   * one rule for every route (docs/decisions/model-in-answers.md).
   */
  model: string;
  /** Unix seconds for `created` fields. */
  created: number;
  /** The gateway request id in letters and digits, for the ids of translated answers (`msg_…`, `resp_…`). */
  responseId: string;
  /** The gateway request id as sent (`x-generation-id`): the id `/v1/generation?id=` finds the request's record by. */
  requestId: string;
  /** The client asked for usage in the stream. */
  showUsage: boolean;
  /** Usage-cost injection is on: usage is shown with `cost`. */
  injectCost: boolean;
  /** The exact USD cost of a usage, as a decimal string. */
  priceUsd(usage: TokenUsage): string;
  /** The request's final usage (the upstream's, else an estimate), once the upstream has ended. */
  finalUsage(): Promise<TokenUsage>;
  /** The prompt's size as estimated before the upstream reports it (Anthropic announces it first). */
  promptTokensEstimate: number;
  /** The client's request body, for answers shaped by its parameters (a Responses object repeats them, and follows its `include`). */
  clientBody: Readonly<Record<string, unknown>>;
}
