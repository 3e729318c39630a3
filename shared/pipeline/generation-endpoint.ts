import type { BilledUnits } from '../core/billed-units.ts';
import type { EndpointName } from '../core/endpoints.ts';
import type { RouteTarget } from '../core/plan-route.ts';
import type { ModelKind, Project, ProjectConfig, WireProtocolId } from '../core/project-config.ts';
import type { Attribution } from '../core/usage-record.ts';
import { parsedJsonBody, type GatewayRequest } from '../http/gateway-http.ts';
import type { Bridge } from '../protocols/bridge.ts';
import type { RequestBodyJson } from '../protocols/parse-model-request.ts';
import { PROMPT_TRANSFORM_FIELDS, USAGE_ACCOUNTING_FIELDS } from '../protocols/routing-fields.ts';
import type { ClientProtocol } from '../protocols/wire-protocol.ts';
import type { AdmittedRequest } from './admit-request.ts';
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
 * Every field of a generation body that is the gateway's alone: the routing fields, OpenRouter's
 * usage-accounting switch (`usage`) and its prompt transforms (`transforms`). A pass-through's body,
 * another API's, keeps its `usage` and `transforms`.
 */
export const GATEWAY_ONLY_FIELDS = [...ROUTING_ONLY_FIELDS, ...USAGE_ACCOUNTING_FIELDS, ...PROMPT_TRANSFORM_FIELDS] as const;

/**
 * A generation endpoint as the one pipeline (runGeneration) needs it: only what differs between
 * endpoints. Admission, routing, failover, relay, translation and metering are the pipeline's.
 */
export interface GenerationEndpoint<Body extends RoutableBody = RoutableBody> {
  name: EndpointName;
  /**
   * The protocol clients speak on this endpoint (a wire protocol or a client dialect): it renders errors
   * (and, unless the endpoint reaches its targets its own way, reads bodies and writes answers).
   */
  clientProtocol: ClientProtocol;
  /** The kinds of model the endpoint serves. */
  modelKinds: readonly ModelKind[];
  /** Refuses a request the project does not allow on this endpoint (after the key and the project are known). */
  admitProject?(project: Project): void;
  /** Parses and validates the client's request body (a defect is a 400 in the client's protocol). */
  parse(request: GatewayRequest): Body | Promise<Body>;
  /**
   * The end user the body says the request is made for (OpenAI's `user`, Anthropic's `metadata.user_id`), as
   * sent: recorded as attribution (`endUser`), while the field itself goes upstream unchanged. Absent: the
   * endpoint's bodies name none.
   */
  endUser?(body: Body): string | undefined;
  /** The prompt as a tokenizer sees it, for estimates when the upstream reports no usage. */
  promptText(body: Body): string;
  /**
   * The prompt tokens the body sends as token ids (OpenAI's token-array inputs), which no text stands for:
   * counted exactly, beside the text's estimate. None when absent.
   */
  promptTokenIds?(body: Body): number;
  /** The request's own cap on output tokens, if it sets one: per choice where the request asks for several. */
  maxOutputTokens(body: Body): number | undefined;
  /**
   * The body (without the gateway's fields) with an output cap, in the protocol's own field, for a body that
   * sets none: what a prepaid request is held to when its model's largest answer is unknown
   * (within-reservation.ts). Absent: the protocol requires a cap (Messages) or has none.
   */
  withOutputCap?(body: Record<string, unknown>, cap: number): Record<string, unknown>;
  /**
   * The body (without the gateway's fields) with its web searches held to what unitsBound counted where no
   * limit of the client's does (within-reservation.ts): a prepaid request's. Absent: the endpoint's bodies
   * carry no web search tool.
   */
  withWebSearchesLimited?(body: Record<string, unknown>): Record<string, unknown>;
  /**
   * The thinking budget its reasoning settings may have a translation to Claude add above that cap
   * (thinkingBudgetBound), for the prepaid reservation. None when absent.
   */
  thinkingBudget?(body: Body): number | undefined;
  /**
   * What the request has the provider generate and bill when that is more than one answer to one prompt
   * (chat's `n`; legacy completions' prompts, each answered `n` or `best_of` times): admission takes the
   * output cap once per choice. One prompt and one choice when absent.
   */
  generations?(body: Body): Generations;
  /**
   * Routing the body implies beyond its routing fields, decided before the targets are planned (a request
   * that continues a stored response must reach the provider that stored it): the body as planning sees it.
   */
  refineRouting?(body: Body, context: RoutingContext): Promise<Body>;
  /**
   * How the endpoint reaches a target, for an endpoint that has no canonical model (embeddings, audio,
   * rerank, …): the provider protocols that serve it and the bridge to one target. Absent, every protocol
   * of the registry is reached through the client protocol's bridge (native or translated).
   */
  upstream?: EndpointUpstream<Body>;
  /** The most of each non-token unit the request can be billed (images asked for, characters to speak), for the balance. */
  unitsBound?(body: Body): BilledUnits;
  /**
   * The targets of a request that names no model (a pass-through to a provider's files API): chosen by the
   * endpoint; undefined to plan them from the body's model as usual.
   */
  targetsWithoutModel?(body: Body, admitted: AdmittedRequest): RouteTarget[] | undefined;
  /**
   * Keeps what a served answer created upstream (a video job: it lives on at the provider, and later
   * requests of the same project reach it), before the client learns its id.
   */
  keepCreated?(created: CreatedUpstreamObject, services: GatewayServices): Promise<KeptUpstreamObject>;
  /**
   * What the endpoint adds to the request's usage record (the editor profile's compression savings), worked
   * out when the record is written, after the answer: off the answer's path.
   */
  annotateRecord?(body: Body): Promise<RecordAnnotations>;
}

/** How much one request has the provider generate: the prompts it answers, and the choices of all of them. */
export interface Generations {
  prompts: number;
  /** Every choice the provider generates (and bills), returned or not (`best_of` candidates). */
  choices: number;
}

/** An endpoint's additions to a usage record. */
export interface RecordAnnotations {
  /** Prompt tokens the endpoint's prompt compression took out before the request went upstream. */
  compressionSavedTokens?: number;
  /** Attribution the body carries (the editor's conversation id); the client's headers win. */
  attribution?: Attribution;
}

/** What keeping a created object took of the request's reservation: held until the object's own record (a video's seconds). */
export interface KeptUpstreamObject {
  keptReservedNanos: number;
}

/** An object a provider created for a request, and whose it is. */
export interface CreatedUpstreamObject {
  upstreamId: string;
  /** What the request reserved of a prepaid balance (0 for a postpaid project). */
  reservedNanos: number;
  /** The provider's answer that describes it. */
  payload: Record<string, unknown>;
  target: RouteTarget;
  projectId: string;
  keyId: string;
  requestId: string;
}

export interface EndpointUpstream<Body extends RoutableBody = RoutableBody> {
  /** The provider protocols through which a provider serves the endpoint (an OpenAI-compatible one: `openai-chat`). */
  protocols: readonly WireProtocolId[];
  /** Why no other protocol serves it, said in the 400 of a request whose models speak none of them. */
  onlyThoseBecause?: string;
  /** The bridge to one target for this request. */
  bridgeTo(target: RouteTarget, body: Body): Bridge;
}

/** A parser of a JSON body (most endpoints): the body decoded strictly as UTF-8 and parsed once per request, then validated. */
export function jsonBody<Body>(parse: (body: RequestBodyJson) => Body): (request: GatewayRequest) => Body {
  return (request) => parse(parsedJsonBody(request));
}

/** What an endpoint may consult to refine a request's routing. */
export interface RoutingContext {
  config: ProjectConfig;
  services: GatewayServices;
}

/** A body without its gateway-only fields: what the upstream may see of it. */
export function withoutGatewayFields(body: Record<string, unknown>): Record<string, unknown> {
  const rest = { ...body };
  for (const field of GATEWAY_ONLY_FIELDS) delete rest[field];
  return rest;
}
