import type { CanonicalRequest } from '../canonical/canonical-request.ts';
import type { CanonicalResponse } from '../canonical/canonical-response.ts';
import type { WireProtocolId } from '../core/project-config.ts';
import type { GatewayRequest, GatewayResponse } from '../http/gateway-http.ts';
import type { UpstreamErrorAnswer } from '../transport/upstream-errors.ts';
import { wireProtocol } from './registry.ts';
import { isClientDialect, type ClientDialect, type ClientProtocol, type DialectRewrite, type NativeCarriage, type StreamReader, type UpstreamProtocol, type WireProtocol } from './wire-protocol.ts';

/** A request as one upstream receives it: the path below its base URL, the protocol's headers, the body. */
export interface UpstreamRequest {
  path: string;
  headers: Record<string, string>;
  body: string;
  /** The error answer with the status its failure means, when the upstream protocol names errors its own way. */
  interpretError?: (answer: UpstreamErrorAnswer) => UpstreamErrorAnswer;
}

interface BridgeSides {
  upstream: UpstreamProtocol;
  /** The request for a client body (routing-only fields already removed). */
  request(body: Record<string, unknown>, upstreamModel: string, clientHeaders: GatewayRequest['headers']): UpstreamRequest;
  /** An upstream's refusal of the request, in the client's protocol. */
  relayUpstreamError(answer: UpstreamErrorAnswer): GatewayResponse;
  /** The upstream's complete answer in canonical terms, read knowing the request it answers when translated. */
  readResponse(payload: unknown): CanonicalResponse;
  /** The upstream protocol's stream reader, knowing the request it answers when translated. */
  createStreamReader(): StreamReader;
}

/**
 * The way between the client's protocol and one upstream's, chosen once per target:
 * - native when the provider speaks a protocol that carries the client's (its own; Anthropic's Messages in
 *   Bedrock's InvokeModel): the body as sent, the upstream's events back;
 * - else, for a client dialect, its direct rewrite to a protocol the provider speaks (the answer comes back
 *   through the canonical model);
 * - else a translation through the canonical model (the client protocol's reader and the upstream
 *   protocol's writer, and back).
 * `native` tells the answer's path: a native answer passes through, any other is written by the client.
 */
export type Bridge = BridgeSides & ({ native: true; client: WireProtocol } | { native: false; client: ClientProtocol });

/**
 * Chooses the bridge to a provider speaking `providerProtocols`: a protocol that carries the client's when
 * the provider speaks one, else a dialect's first rewrite the provider takes, else the provider's first
 * protocol. `canonical` reads the client body once for every translated target of the request.
 */
export function chooseBridge(client: ClientProtocol, providerProtocols: readonly WireProtocolId[], canonical: () => CanonicalRequest): Bridge {
  if (isClientDialect(client)) {
    const rewrite = client.rewrites.find((candidate) => providerProtocols.includes(candidate.upstream));
    if (rewrite) return rewrittenBridge(client, rewrite);
    return translatedBridge(client, wireProtocol(providerProtocols[0] ?? client.rewrites[0]?.upstream ?? 'openai-chat'), canonical);
  }
  const carrier = providerProtocols.map(wireProtocol).find((protocol) => protocol.native?.carries === client.id);
  if (carrier?.native) return nativeBridge(client, carrier, carrier.native);
  return translatedBridge(client, wireProtocol(providerProtocols[0] ?? client.id), canonical);
}

function streamingOf(body: Record<string, unknown>): boolean {
  return body.stream === true;
}

function nativeBridge(client: WireProtocol, upstream: UpstreamProtocol, carriage: NativeCarriage): Bridge {
  return {
    client,
    upstream,
    native: true,
    request(body, upstreamModel, clientHeaders) {
      const streaming = streamingOf(body);
      return withErrorInterpretation(upstream, {
        path: upstream.upstreamPath({ streaming, upstreamModel }),
        headers: upstream.upstreamHeaders(clientHeaders, streaming),
        body: carriage.requestBody(body, upstreamModel, clientHeaders),
      });
    },
    relayUpstreamError: (answer) => relayInClientWords(client, upstream, answer),
    readResponse: (payload) => upstream.readResponse(payload),
    createStreamReader: () => upstream.createStreamReader(),
  };
}

function withErrorInterpretation(upstream: UpstreamProtocol, request: UpstreamRequest): UpstreamRequest {
  const interpretError = upstream.interpretErrorAnswer;
  return interpretError ? { ...request, interpretError: (answer) => interpretError.call(upstream, answer) } : request;
}

/** An upstream's error words in the client's protocol, with the upstream's status. */
function relayInClientWords(client: ClientProtocol, upstream: UpstreamProtocol, answer: UpstreamErrorAnswer): GatewayResponse {
  // The upstream's own error body reaches the client only when both speak the same protocol.
  if (upstream.id === client.id) return client.relayUpstreamError(answer);
  const body = client.writeErrorBody(upstream.readErrorBody(answer));
  return client.relayUpstreamError({ ...answer, contentType: 'application/json', body });
}

function translatedBridge(client: ClientProtocol, upstream: UpstreamProtocol, canonical: () => CanonicalRequest): Bridge {
  return {
    client,
    upstream,
    native: false,
    request(body, upstreamModel, clientHeaders) {
      const streaming = streamingOf(body);
      return withErrorInterpretation(upstream, {
        path: upstream.upstreamPath({ streaming, upstreamModel }),
        headers: upstream.upstreamHeaders(clientHeaders, streaming),
        body: JSON.stringify(upstream.writeRequest(canonical(), upstreamModel)),
      });
    },
    relayUpstreamError: (answer) => relayInClientWords(client, upstream, answer),
    readResponse: (payload) => upstream.readResponse(payload, canonical()),
    createStreamReader: () => upstream.createStreamReader(canonical()),
  };
}

/** A dialect's body rewritten straight into the upstream's protocol: nothing was encoded that a reader must decode. */
function rewrittenBridge(client: ClientDialect, rewrite: DialectRewrite): Bridge {
  const upstream = wireProtocol(rewrite.upstream);
  return {
    client,
    upstream,
    native: false,
    request(body, upstreamModel, clientHeaders) {
      const streaming = streamingOf(body);
      return withErrorInterpretation(upstream, {
        path: upstream.upstreamPath({ streaming, upstreamModel }),
        headers: upstream.upstreamHeaders(clientHeaders, streaming),
        body: JSON.stringify(rewrite.body(body, upstreamModel)),
      });
    },
    relayUpstreamError: (answer) => relayInClientWords(client, upstream, answer),
    readResponse: (payload) => upstream.readResponse(payload),
    createStreamReader: () => upstream.createStreamReader(),
  };
}
