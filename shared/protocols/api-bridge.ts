import type { CanonicalResponse } from '../canonical/canonical-response.ts';
import type { TokenUsage } from '../core/token-usage.ts';
import type { GatewayRequest, GatewayResponse } from '../http/gateway-http.ts';
import type { UpstreamErrorAnswer } from '../transport/upstream-errors.ts';
import { createSseDecoder } from '../transport/stream-decoder.ts';
import { NO_BYTES_METER, type AnswerKind, type Bridge, type BytesMeter, type UpstreamRequest } from './bridge.ts';
import { presentWithUsageCost, usageEventPassThrough } from './usage-cost.ts';
import { openAiRefusals, openAiStreamErrorFrame, renderOpenAiError } from './openai-chat/openai-errors.ts';
import { relayUpstreamRefusal } from './upstream-refusal.ts';
import type { ClientStream, ErrorWords, Presentation, StreamReader } from './wire-protocol.ts';

/**
 * One upstream API of an endpoint that has no canonical model (embeddings, images, audio, moderations,
 * legacy completions, rerank, videos): how to send the client's request to one provider and read what
 * comes back, for metering and for the client. Errors are OpenAI's (the `/v1/*` route group's).
 */
export interface EndpointApi {
  /** True when the provider receives the client's request as it was sent (its model id aside). */
  native: boolean;
  request(body: Record<string, unknown>, upstreamModel: string, clientHeaders: GatewayRequest['headers']): UpstreamRequest;
  /** How a served answer is relayed; unless given, events when the client asked for a stream and the provider answered one, else JSON. */
  answerKind?(response: Response, streamed: boolean): AnswerKind;
  /** A JSON answer's usage (tokens and units), id and finish, in canonical terms. */
  readResponse(payload: Record<string, unknown>): CanonicalResponse;
  /** Whether a JSON answer is one (a 200 of JSON where the API answers bytes is none: 502, failed over); every JSON object unless given. */
  isCompleteAnswer?(payload: Record<string, unknown>): boolean;
  /**
   * The JSON answer as the client sees it; unless given, as sent, with `usage.cost` when injection is on.
   * With its content type when it is no longer JSON (a transcript asked for as text).
   */
  presentResponse?(text: string, payload: Record<string, unknown>, answer: CanonicalResponse & { usage: TokenUsage }, presentation: Presentation): string | { body: string; contentType: string };
  /** Reads an event stream's usage (for an API that streams). */
  createStreamReader?(): StreamReader;
  /** What the client sees of the stream; unless given, every event as sent, usage events with `cost` when injection is on. */
  createPassThrough?(presentation: Presentation): ClientStream;
  /**
   * The client's stream for a complete answer to a client that asked for a stream (the provider ignored
   * `stream: true`), written from its canonical events (complete-answer-stream.ts); unless given, such an
   * answer is shown as it came, as JSON (images: their stream's events hold what no JSON answer has).
   */
  createAnswerStream?(presentation: Presentation): ClientStream;
  /** Meters an answer relayed as bytes. */
  createBytesMeter?(): BytesMeter;
  clientAskedForStreamUsage?(body: Record<string, unknown>): boolean;
  /** The words of a provider's JSON refusal in its own dialect, written in OpenAI's format; unless given, the refusal is relayed as sent (an OpenAI-compatible error). */
  readErrorWords?(answer: UpstreamErrorAnswer): ErrorWords;
}

const NOTHING_TO_READ: StreamReader = { push: () => [] };

/** The bridge the one pipeline uses to reach a target through an endpoint API. */
export function apiBridge(api: EndpointApi): Bridge {
  const { createAnswerStream, readErrorWords, isCompleteAnswer } = api;
  return {
    ...(isCompleteAnswer ? { isCompleteAnswer } : {}),
    native: api.native,
    request: (body, upstreamModel, clientHeaders) => api.request(body, upstreamModel, clientHeaders),
    // A refusal that is only text is OpenAI's error whatever the API; a JSON one is relayed, or read in the API's dialect.
    relayUpstreamError: (answer) => relayUpstreamRefusal(openAiRefusals, answer, readErrorWords),
    clientAskedForStreamUsage: (body) => api.clientAskedForStreamUsage?.(body) ?? false,
    // An upstream may ignore `stream: true` and answer JSON: that answer is read whole (and billed), not relayed as events.
    answerKind: (response, streamed) => api.answerKind?.(response, streamed) ?? (streamed && isEventStream(response) ? 'stream' : 'json'),
    readResponse: (payload) => api.readResponse(payload as Record<string, unknown>),
    // A native answer is the upstream's, id included; another API's answer is written by the endpoint.
    answerId: (upstreamId) => (api.native ? upstreamId : undefined),
    presentResponse({ text, payload, canonical, usage, upstreamContentType }, presentation) {
      const answer = { ...canonical, usage };
      const shown = api.presentResponse ? api.presentResponse(text, payload, answer, presentation) : presentWithUsageCost(text, payload, usage, presentation);
      if (typeof shown !== 'string') return shown;
      return { body: shown, contentType: api.presentResponse && !api.native ? 'application/json' : upstreamContentType };
    },
    createStreamDecoder: createSseDecoder,
    createStreamReader: () => api.createStreamReader?.() ?? NOTHING_TO_READ,
    createClientStream: (presentation) => api.createPassThrough?.(presentation) ?? usageEventPassThrough(presentation),
    ...(createAnswerStream ? { createAnswerStream } : {}),
    streamErrorFrame: openAiStreamErrorFrame,
    streamContentType: 'text/event-stream',
    renderError: renderOpenAiError,
    createBytesMeter: () => api.createBytesMeter?.() ?? NO_BYTES_METER,
  };
}

function isEventStream(response: Response): boolean {
  return (response.headers.get('content-type') ?? '').trim().toLowerCase().startsWith('text/event-stream');
}
