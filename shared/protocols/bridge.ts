import type { CanonicalRequest } from '../canonical/canonical-request.ts';
import type { CanonicalResponse } from '../canonical/canonical-response.ts';
import type { BilledUnits } from '../core/billed-units.ts';
import { isConversationProtocol, type WireProtocolId } from '../core/project-config.ts';
import type { TokenUsage } from '../core/token-usage.ts';
import type { GatewayRequest, GatewayResponse } from '../http/gateway-http.ts';
import type { StreamDecoder } from '../transport/stream-decoder.ts';
import type { UpstreamErrorAnswer } from '../transport/upstream-errors.ts';
import { wireProtocol } from './registry.ts';
import type { ClientStream, Presentation, StreamReader, WireProtocol } from './wire-protocol.ts';

/** A request as one upstream receives it: the path below its base URL, the protocol's headers, the body. */
export interface UpstreamRequest {
  path: string;
  /** POST unless given (a pass-through GET or DELETE). */
  method?: string;
  headers: Record<string, string>;
  /** Text for JSON protocols, bytes for uploads (a multipart form); none for a GET. */
  body?: string | Uint8Array;
}

/**
 * How a served answer reaches the client: read whole as JSON, relayed event by event (SSE), or relayed
 * byte for byte as it arrives (audio, subtitles) with the upstream's content type.
 */
export type AnswerKind = 'json' | 'stream' | 'bytes';

/** Meters an answer relayed as bytes: it sees each chunk, and says what was used once the answer ends. */
export interface BytesMeter {
  push(chunk: Uint8Array): void;
  /** The tokens the answer reports (none: estimated) and the units it is billed (characters spoken, seconds transcribed). */
  end(): { usage?: TokenUsage; units?: BilledUnits };
}

/**
 * The way between the client's protocol and one upstream's, chosen once per target: what the one pipeline
 * needs to send a request there and bring its answer back. A protocol bridge (chooseBridge) is native when
 * the provider speaks the client's protocol (the body as sent, the upstream's bytes back), else a
 * translation through the canonical model; an endpoint without a canonical model (embeddings, audio, …)
 * brings its own bridge (native-api-bridge.ts).
 */
export interface Bridge {
  native: boolean;
  /** The upstream request for a client body (routing-only fields already removed). */
  request(body: Record<string, unknown>, upstreamModel: string, clientHeaders: GatewayRequest['headers']): UpstreamRequest;
  /** An upstream's refusal of the request, in the client's protocol. */
  relayUpstreamError(answer: UpstreamErrorAnswer): GatewayResponse;
  /** Whether the client asked to see usage in the stream (it is metered regardless). */
  clientAskedForStreamUsage(body: Record<string, unknown>): boolean;
  /** How the served answer is relayed, from its head and whether the client asked for a stream. */
  answerKind(response: Response, streamed: boolean): AnswerKind;
  /** The upstream's complete answer in canonical terms (usage, finish, id), read knowing the request when translated. */
  readResponse(payload: unknown): CanonicalResponse;
  /** The complete answer as the client sees it, with its content type. */
  presentResponse(answer: { text: string; payload: Record<string, unknown>; canonical: CanonicalResponse; usage: TokenUsage; upstreamContentType: string }, presentation: Presentation): { body: string; contentType: string };
  /** How the upstream frames its stream. */
  createStreamDecoder(): StreamDecoder;
  /** The upstream protocol's stream reader, knowing the request it answers when translated. */
  createStreamReader(): StreamReader;
  /** What the client sees of the stream: the upstream's frames (native) or the client protocol's (translated). */
  createClientStream(presentation: Presentation): ClientStream;
  /** A gateway error after the first streamed byte, in the client protocol's stream. */
  streamErrorFrame: WireProtocol['streamErrorFrame'];
  streamContentType: string;
  /** Meters an answer relayed as bytes (answerKind `bytes`). */
  createBytesMeter(): BytesMeter;
}

/** A bridge between two wire protocols of the registry. */
export interface ProtocolBridge extends Bridge {
  client: WireProtocol;
  upstream: WireProtocol;
}

/** Bytes of a protocol answer are never relayed raw; nothing to meter. */
const NO_BYTES_METER: BytesMeter = { push: () => undefined, end: () => ({}) };

/**
 * Chooses the bridge to a provider speaking `providerProtocols`: the client's own protocol when the
 * provider speaks it, else the provider's first conversation protocol. `canonical` reads the client body once for
 * every translated target of the request.
 */
export function chooseBridge(client: WireProtocol, providerProtocols: readonly WireProtocolId[], canonical: () => CanonicalRequest): ProtocolBridge {
  const native = providerProtocols.includes(client.id);
  const upstream = native ? client : wireProtocol(providerProtocols.find(isConversationProtocol) ?? client.id);
  return {
    client,
    upstream,
    native,
    request(body, upstreamModel, clientHeaders) {
      const streaming = body.stream === true;
      const payload = native ? upstream.nativeRequestBody(body, upstreamModel) : JSON.stringify(upstream.writeRequest(canonical(), upstreamModel));
      return { path: upstream.upstreamPath({ streaming, upstreamModel }), headers: upstream.upstreamHeaders(clientHeaders, streaming), body: payload };
    },
    relayUpstreamError(answer) {
      if (native) return client.relayUpstreamError(answer);
      const body = client.writeErrorBody(upstream.readErrorBody(answer.body));
      return client.relayUpstreamError({ ...answer, contentType: 'application/json', body });
    },
    clientAskedForStreamUsage: (body) => client.clientAskedForStreamUsage(body),
    answerKind: (response, streamed) => (streamed && response.body ? 'stream' : 'json'),
    readResponse: (payload) => (native ? upstream.readResponse(payload) : upstream.readResponse(payload, canonical())),
    presentResponse({ text, payload, canonical: answer, usage, upstreamContentType }, presentation) {
      if (native) return { body: client.presentNativeResponse(text, payload, usage, presentation), contentType: upstreamContentType };
      return { body: client.writeResponse({ ...answer, usage }, presentation), contentType: 'application/json' };
    },
    createStreamDecoder: () => upstream.createStreamDecoder(),
    createStreamReader: () => (native ? upstream.createStreamReader() : upstream.createStreamReader(canonical())),
    createClientStream: (presentation) => (native ? client.createPassThrough(presentation) : client.createStreamWriter(presentation)),
    streamErrorFrame: client.streamErrorFrame,
    streamContentType: client.streamContentType,
    createBytesMeter: () => NO_BYTES_METER,
  };
}
