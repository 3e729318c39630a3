import type { EndpointName } from '../core/endpoints.ts';
import type { ModelKind, ProjectConfig } from '../core/project-config.ts';
import type { WireProtocol } from '../protocols/wire-protocol.ts';
import type { GatewayServices } from './gateway-services.ts';

/** The routing fields every generation endpoint reads (spec 2.2), beside its other parameters. */
export interface RoutableBody extends Record<string, unknown> {
  model: string;
  models?: string[] | undefined;
  route?: 'fallback' | undefined;
  provider?: unknown;
  stream?: boolean | null | undefined;
}

/** Consumed by the gateway, never sent upstream (`fallbacks` is OpenRouter's alias of `models`). */
export const ROUTING_ONLY_FIELDS = ['models', 'fallbacks', 'route', 'provider'] as const;

/**
 * A generation endpoint as the one pipeline (runGeneration) needs it: only what differs between
 * endpoints. Admission, routing, failover, relay, translation and metering are the pipeline's.
 */
export interface GenerationEndpoint<Body extends RoutableBody = RoutableBody> {
  name: EndpointName;
  /** The protocol clients speak on this endpoint: it reads their bodies and renders answers and errors. */
  clientProtocol: WireProtocol;
  /** The kinds of model the endpoint serves. */
  modelKinds: readonly ModelKind[];
  /** Parses and validates the client's body (a defect is a 400 in the client's protocol). */
  parse(body: string): Body;
  /** The prompt as a tokenizer sees it, for estimates when the upstream reports no usage. */
  promptText(body: Body): string;
  /** The request's own cap on output tokens, if it sets one. */
  maxOutputTokens(body: Body): number | undefined;
  /**
   * Routing the body implies beyond its routing fields, decided before the targets are planned (a request
   * that continues a stored response must reach the provider that stored it): the body as planning sees it.
   */
  refineRouting?(body: Body, context: RoutingContext): Promise<Body>;
}

/** What an endpoint may consult to refine a request's routing. */
export interface RoutingContext {
  config: ProjectConfig;
  services: GatewayServices;
}

export function withoutRoutingFields(body: Record<string, unknown>): Record<string, unknown> {
  const rest = { ...body };
  for (const field of ROUTING_ONLY_FIELDS) delete rest[field];
  return rest;
}
