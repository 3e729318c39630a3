import type { CanonicalRequest } from '../canonical/canonical-request.ts';
import type { CanonicalResponse } from '../canonical/canonical-response.ts';
import type { BilledUnits } from '../core/billed-units.ts';
import type { GatewayError } from '../core/errors.ts';
import type { TokenUsage } from '../core/token-usage.ts';
import type { GatewayRequest, GatewayResponse } from '../http/gateway-http.ts';
import { hasBody } from '../transport/incoming-response.ts';
import type { StreamDecoder } from '../transport/stream-decoder.ts';
import type { UpstreamErrorAnswer } from '../transport/upstream-errors.ts';
import { planBridge, type BridgeTarget } from './bridge-plan.ts';
import { wireProtocol } from './registry.ts';
import { relayUpstreamRefusal } from './upstream-refusal.ts';
import {
  isClientDialect,
  type ClientDialect,
  type ClientProtocol,
  type ClientStream,
  type DialectRewrite,
  type NativeCarriage,
  type NativeFeatures,
  type Presentation,
  type StreamReader,
  type UpstreamFeatures,
  type UpstreamProtocol,
  type WireProtocol,
} from './wire-protocol.ts';

/** A request as one upstream receives it: the path below its base URL, the protocol's headers, the body. */
export interface UpstreamRequest {
  path: string;
  /** POST unless given (a pass-through GET or DELETE). */
  method?: string;
  headers: Record<string, string>;
  /** Text for JSON protocols, bytes for uploads (a multipart form); none for a GET. */
  body?: string | Uint8Array;
  /** The error answer with the status its failure means, when the upstream protocol names errors its own way. */
  interpretError?: (answer: UpstreamErrorAnswer) => UpstreamErrorAnswer;
}

/**
 * How a served answer reaches the client: read whole as JSON, relayed event by event (SSE or AWS event
 * stream), or relayed byte for byte as it arrives (audio, subtitles) with the upstream's content type.
 */
export type AnswerKind = 'json' | 'stream' | 'bytes';

/** Meters an answer relayed as bytes: it sees each chunk, and says what was used once the answer ends. */
export interface BytesMeter {
  push(chunk: Uint8Array): void;
  /** The tokens the answer reports (none: estimated) and the units it is billed (characters spoken, seconds transcribed). */
  end(): { usage?: TokenUsage; units?: BilledUnits };
}

/**
 * The way from the client to one upstream, chosen once per target: all the one pipeline (run-generation.ts)
 * knows of protocols. It never reaches into the protocols behind it. A protocol bridge (chooseBridge) joins
 * a client protocol to an upstream protocol of the registry; an endpoint without a canonical model
 * (embeddings, audio, rerank, …) brings its own bridge (api-bridge.ts).
 */
export interface Bridge {
  /** The upstream receives the client's request as sent and its answer passes through (its model id and usage aside). */
  native: boolean;
  /** The upstream request for a client body (routing-only fields already removed). */
  request(body: Record<string, unknown>, upstreamModel: string, clientHeaders: GatewayRequest['headers']): UpstreamRequest;
  /** An upstream's refusal of the request, in the client's protocol. */
  relayUpstreamError(answer: UpstreamErrorAnswer): GatewayResponse;
  /** Whether the client asked to see usage in the stream (it is metered regardless). */
  clientAskedForStreamUsage(body: Record<string, unknown>): boolean;
  /**
   * How the served answer is relayed, from its head and whether the client asked for a stream: a protocol's
   * answer is a stream only when its content type is the protocol's stream's (an upstream may ignore
   * `stream: true` and answer JSON, or a proxy answer an HTML page).
   */
  answerKind(response: Response, streamed: boolean): AnswerKind;
  /**
   * Whether a complete JSON answer is one of the upstream protocol's (a conversation protocol's shape, not
   * an error object in its place); absent, any JSON object is (the endpoints beyond conversations).
   */
  isCompleteAnswer?(payload: Record<string, unknown>): boolean;
  /** The upstream's complete answer in canonical terms (usage, finish, id), read knowing the request when translated. */
  readResponse(payload: unknown): CanonicalResponse;
  /**
   * The id the client finds in the answer's body, recorded so that the generation can be looked up by it:
   * the upstream's own when its answer passes through, else the client protocol's writer's (`msg_…`,
   * `resp_…`). `written`: the gateway wrote the answer itself even on a native bridge (a complete answer
   * shown as a stream). Undefined when the answer has no id the gateway knows.
   */
  answerId(upstreamId: string | undefined, responseId: string, written: boolean): string | undefined;
  /** The complete answer as the client sees it, with its content type. */
  presentResponse(answer: { text: string; payload: Record<string, unknown>; canonical: CanonicalResponse; usage: TokenUsage; upstreamContentType: string }, presentation: Presentation): { body: string; contentType: string };
  /** How the upstream frames its stream (SSE, or AWS event-stream, whose codec loads on first use). */
  createStreamDecoder(): StreamDecoder | Promise<StreamDecoder>;
  /** The upstream protocol's stream reader, knowing the request it answers when translated. */
  createStreamReader(): StreamReader;
  /** What the client sees of the stream: the upstream's frames (native) or the client protocol's (otherwise). */
  createClientStream(presentation: Presentation): ClientStream;
  /**
   * The client protocol's writer of canonical events, for a complete answer to a client that asked for a
   * stream (complete-answer-stream.ts); absent, such an answer is shown as it came.
   */
  createAnswerStream?(presentation: Presentation): ClientStream;
  /** A gateway error after the first streamed byte, in the client protocol's stream. */
  streamErrorFrame(error: GatewayError): string;
  streamContentType: string;
  /** A gateway error as the client protocol's error response (a held stream's failure before its first bytes). */
  renderError(error: GatewayError, headers: Record<string, string>): GatewayResponse;
  /** Meters an answer relayed as bytes (answerKind `bytes`). */
  createBytesMeter(): BytesMeter;
}

/** A bridge between a client protocol and an upstream protocol of the registry: JSON bodies both ways. */
export interface ProtocolBridge extends Bridge {
  client: ClientProtocol;
  upstream: UpstreamProtocol;
  request(body: Record<string, unknown>, upstreamModel: string, clientHeaders: GatewayRequest['headers']): UpstreamRequest & { body: string };
}

/** Bytes of a protocol answer are never relayed raw; nothing to meter. */
export const NO_BYTES_METER: BytesMeter = { push: () => undefined, end: () => ({}) };

/**
 * Chooses the bridge to a provider, its protocols loaded (bridgeProtocols):
 * - native when the provider speaks a protocol that carries the client's (its own; Anthropic's Messages in
 *   Bedrock's InvokeModel): the body as sent, the upstream's events back; unless the body uses custom tools
 *   the provider does not take, which only a translation can encode for it and decode on the way back;
 * - else, for a client dialect, its direct rewrite to a protocol the provider speaks (the answer comes back
 *   through the canonical model);
 * - else a translation through the canonical model (the client protocol's reader and the upstream
 *   protocol's writer, and back) to the provider's first conversation protocol, or its Responses API for a
 *   model that reasons as OpenAI's do (translationTarget).
 * `canonical` reads the client body once for every translated target of the request.
 */
export function chooseBridge(client: ClientProtocol, target: BridgeTarget, body: Record<string, unknown>, canonical: () => CanonicalRequest): ProtocolBridge {
  const plan = planBridge(client, target);
  if (isClientDialect(client)) {
    return plan.rewrite ? rewrittenBridge(client, plan.rewrite, target.features) : translatedBridge(client, wireProtocol(plan.translatedTo), target.features, canonical);
  }
  const carrier = plan.carrier ? wireProtocol(plan.carrier) : undefined;
  const carriage = carrier?.native;
  if (carrier && carriage && (target.features.customTools || !carriage.usesCustomTools?.(body))) return nativeBridgeBetween(client, carrier, carriage, target.features);
  return translatedBridge(client, wireProtocol(plan.translatedTo), target.features, canonical);
}

function streamingOf(body: Record<string, unknown>): boolean {
  return body.stream === true;
}

/** What every protocol bridge does the same way: the request's path and headers, errors, and the client's stream frame. */
function protocolSides(
  client: ClientProtocol,
  upstream: UpstreamProtocol,
  upstreamBody: (body: Record<string, unknown>, upstreamModel: string, clientHeaders: GatewayRequest['headers']) => string,
): Omit<ProtocolBridge, 'native' | 'readResponse' | 'answerId' | 'presentResponse' | 'createStreamReader' | 'createClientStream'> {
  return {
    client,
    upstream,
    request(body, upstreamModel, clientHeaders) {
      const streaming = streamingOf(body);
      return withErrorInterpretation(upstream, {
        path: upstream.upstreamPath({ streaming, upstreamModel }),
        headers: upstream.upstreamHeaders(clientHeaders, streaming),
        body: upstreamBody(body, upstreamModel, clientHeaders),
      });
    },
    // The upstream's own error body reaches the client only when both speak the same protocol.
    relayUpstreamError: (answer) => relayUpstreamRefusal(client, answer, upstream.id === client.id ? undefined : (read) => upstream.readErrorBody(read)),
    clientAskedForStreamUsage: (body) => client.clientAskedForStreamUsage(body),
    answerKind: (response, streamed) => (streamed && hasContentType(response, upstream.upstreamStreamContentType) && hasBody(response) ? 'stream' : 'json'),
    isCompleteAnswer: (payload) => upstream.isCompleteAnswer(payload),
    createStreamDecoder: () => upstream.createStreamDecoder(),
    createAnswerStream: (presentation) => client.createStreamWriter(presentation),
    streamErrorFrame: (error) => client.streamErrorFrame(error),
    streamContentType: client.streamContentType,
    renderError: (error, headers) => client.renderError(error, headers),
    createBytesMeter: () => NO_BYTES_METER,
  };
}

function hasContentType(response: Response, type: string): boolean {
  return (response.headers.get('content-type') ?? '').trim().toLowerCase().startsWith(type);
}

/**
 * A native bridge depends on its two protocols and the provider features a native body follows: made once
 * per combination, not once per request.
 */
const nativeBridges = new WeakMap<WireProtocol, Map<string, ProtocolBridge>>();

function nativeBridgeBetween(client: WireProtocol, carrier: UpstreamProtocol, carriage: NativeCarriage, features: NativeFeatures): ProtocolBridge {
  let byUpstream = nativeBridges.get(client);
  if (!byUpstream) nativeBridges.set(client, (byUpstream = new Map()));
  const key = `${carrier.id} ${features.maxCompletionTokens} ${features.reasoningObject} ${features.reasoningModel}`;
  let bridge = byUpstream.get(key);
  if (!bridge) {
    const { maxCompletionTokens, reasoningObject, reasoningModel } = features;
    byUpstream.set(key, (bridge = nativeBridge(client, carrier, carriage, { maxCompletionTokens, reasoningObject, ...(reasoningModel !== undefined ? { reasoningModel } : {}) })));
  }
  return bridge;
}

function nativeBridge(client: WireProtocol, upstream: UpstreamProtocol, carriage: NativeCarriage, features: NativeFeatures): ProtocolBridge {
  return {
    ...protocolSides(client, upstream, (body, upstreamModel, clientHeaders) => carriage.requestBody(body, upstreamModel, clientHeaders, features)),
    native: true,
    readResponse: (payload) => upstream.readResponse(payload),
    answerId: (upstreamId, responseId, written) => (written ? client.answerId(upstreamId, responseId) : upstreamId),
    presentResponse: ({ text, payload, usage, upstreamContentType }, presentation) => ({
      body: client.presentNativeResponse(text, payload, usage, presentation),
      contentType: upstreamContentType,
    }),
    createStreamReader: () => upstream.createStreamReader(),
    createClientStream: (presentation) => client.createPassThrough(presentation),
  };
}

function withErrorInterpretation<Request extends UpstreamRequest>(upstream: UpstreamProtocol, request: Request): Request {
  const interpretError = upstream.interpretErrorAnswer;
  return interpretError ? { ...request, interpretError: (answer: UpstreamErrorAnswer) => interpretError.call(upstream, answer) } : request;
}

/**
 * An answer that comes back through the canonical model, written by the client protocol. `request` is the
 * translated request it answers (what the writer encoded is decoded on the way back); absent for a
 * dialect's rewrite, which encoded nothing.
 */
function canonicalAnswerBridge(
  client: ClientProtocol,
  upstream: UpstreamProtocol,
  upstreamBody: (body: Record<string, unknown>, upstreamModel: string) => string,
  request: (() => CanonicalRequest) | undefined,
): ProtocolBridge {
  return {
    ...protocolSides(client, upstream, upstreamBody),
    native: false,
    readResponse: (payload) => upstream.readResponse(payload, request?.()),
    answerId: (upstreamId, responseId) => client.answerId(upstreamId, responseId),
    presentResponse: ({ canonical, usage }, presentation) => ({ body: client.writeResponse({ ...canonical, usage }, presentation), contentType: 'application/json' }),
    createStreamReader: () => upstream.createStreamReader(request?.()),
    createClientStream: (presentation) => client.createStreamWriter(presentation),
  };
}

function translatedBridge(client: ClientProtocol, upstream: UpstreamProtocol, features: UpstreamFeatures, canonical: () => CanonicalRequest): ProtocolBridge {
  return canonicalAnswerBridge(client, upstream, (_body, upstreamModel) => JSON.stringify(upstream.writeRequest(canonical(), upstreamModel, features)), canonical);
}

/** A dialect's body rewritten straight into the upstream's protocol: nothing was encoded that a reader must decode. */
function rewrittenBridge(client: ClientDialect, rewrite: DialectRewrite, features: NativeFeatures): ProtocolBridge {
  return canonicalAnswerBridge(client, wireProtocol(rewrite.upstream), (body, upstreamModel) => JSON.stringify(rewrite.body(body, upstreamModel, features)), undefined);
}
