import type { CanonicalRequest } from '../canonical/canonical-request.ts';
import type { CanonicalResponse } from '../canonical/canonical-response.ts';
import type { WireProtocolId } from '../core/project-config.ts';
import type { GatewayRequest, GatewayResponse } from '../http/gateway-http.ts';
import type { UpstreamErrorAnswer } from '../transport/upstream-errors.ts';
import { wireProtocol } from './registry.ts';
import type { StreamReader, WireProtocol } from './wire-protocol.ts';

/** A request as one upstream receives it: the path below its base URL, the protocol's headers, the body. */
export interface UpstreamRequest {
  path: string;
  headers: Record<string, string>;
  body: string;
}

/**
 * The way between the client's protocol and one upstream's, chosen once per target: native when the
 * provider speaks the client's protocol (the body as sent, the upstream's bytes back), else a translation
 * through the canonical model (the client protocol's reader and the upstream protocol's writer, and back).
 */
export interface Bridge {
  client: WireProtocol;
  upstream: WireProtocol;
  native: boolean;
  /** The upstream request for a client body (routing-only fields already removed). */
  request(body: Record<string, unknown>, upstreamModel: string, clientHeaders: GatewayRequest['headers']): UpstreamRequest;
  /** An upstream's refusal of the request, in the client's protocol. */
  relayUpstreamError(answer: UpstreamErrorAnswer): GatewayResponse;
  /** The upstream's complete answer in canonical terms, read knowing the request it answers when translated. */
  readResponse(payload: unknown): CanonicalResponse;
  /** The upstream protocol's stream reader, knowing the request it answers when translated. */
  createStreamReader(): StreamReader;
}

/**
 * Chooses the bridge to a provider speaking `providerProtocols`: the client's own protocol when the
 * provider speaks it, else the provider's first protocol. `canonical` reads the client body once for
 * every translated target of the request.
 */
export function chooseBridge(client: WireProtocol, providerProtocols: readonly WireProtocolId[], canonical: () => CanonicalRequest): Bridge {
  const native = providerProtocols.includes(client.id);
  const upstream = native ? client : wireProtocol(providerProtocols[0] ?? client.id);
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
    readResponse: (payload) => (native ? upstream.readResponse(payload) : upstream.readResponse(payload, canonical())),
    createStreamReader: () => (native ? upstream.createStreamReader() : upstream.createStreamReader(canonical())),
  };
}
