import type { EndpointName } from '../core/endpoints.ts';
import type { ModelKind, WireProtocolId } from '../core/project-config.ts';
import type { GatewayRequest } from '../http/gateway-http.ts';
import type { GenerationEndpoint, RoutableBody } from '../pipeline/generation-endpoint.ts';
import { apiBridge, type EndpointApi } from '../protocols/api-bridge.ts';
import { openAiChatProtocol } from '../protocols/openai-chat/openai-chat-protocol.ts';

/**
 * The providers that serve OpenAI's other APIs (embeddings, images, audio, moderations, completions,
 * videos): those that speak OpenAI's protocol, reached natively at the same path below their base URL.
 */
export const OPENAI_API_PROTOCOLS: readonly WireProtocolId[] = ['openai-chat', 'openai-responses'];

export interface OpenAiApiEndpointSpec<Body extends RoutableBody> {
  name: EndpointName;
  modelKinds: readonly ModelKind[];
  parse(request: GatewayRequest): Body | Promise<Body>;
  /** The text the provider bills as the prompt, for the estimate when it reports no usage. */
  promptText(body: Body): string;
  promptTokenIds?: GenerationEndpoint<Body>['promptTokenIds'];
  /** The API for this request (its shape may depend on the body: a response format, a stream). */
  api(body: Body): EndpointApi;
  maxOutputTokens?(body: Body): number | undefined;
  withOutputCap?: GenerationEndpoint<Body>['withOutputCap'];
  /** The end user the body names, on the APIs whose bodies carry one (OpenAI's `user`). */
  endUser?(body: NoInfer<Body>): string | undefined;
  generations?: GenerationEndpoint<Body>['generations'];
  unitsBound?: GenerationEndpoint<Body>['unitsBound'];
}

/** An endpoint of OpenAI's API beyond chat, as a spec of the one pipeline: OpenAI's errors, native to OpenAI-compatible providers. */
export function openAiApiEndpoint<Body extends RoutableBody>(spec: OpenAiApiEndpointSpec<Body>): GenerationEndpoint<Body> {
  return {
    name: spec.name,
    clientProtocol: openAiChatProtocol,
    modelKinds: spec.modelKinds,
    parse: spec.parse,
    promptText: spec.promptText,
    maxOutputTokens: (body) => spec.maxOutputTokens?.(body),
    upstream: { protocols: OPENAI_API_PROTOCOLS, bridgeTo: (_target, body) => apiBridge(spec.api(body)) },
    ...(spec.promptTokenIds ? { promptTokenIds: spec.promptTokenIds } : {}),
    ...(spec.withOutputCap ? { withOutputCap: spec.withOutputCap } : {}),
    ...(spec.generations ? { generations: spec.generations } : {}),
    ...(spec.unitsBound ? { unitsBound: spec.unitsBound } : {}),
    ...(spec.endUser ? { endUser: spec.endUser } : {}),
  };
}
