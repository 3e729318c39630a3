import { baseUrlHint } from '../http/base-url-hint.ts';
import { routeGroupForPath } from '../http/route-groups.ts';
import { lenientRequestPath, lookalikeOfRouteError } from '../http/request-path.ts';
import { GatewayError } from '../core/errors.ts';
import { providerTarget } from '../core/plan-route.ts';
import { isConversationProtocol, modelKindSchema, PROVIDER_FAMILIES, wireProtocolSchema, type OrgRateCard, type ProjectConfig, type WireProtocolId } from '../core/project-config.ts';
import type { RouteTarget } from '../core/plan-route.ts';
import type { GatewayRequest, GatewayResponse } from '../http/gateway-http.ts';
import type { GenerationEndpoint } from '../pipeline/generation-endpoint.ts';
import type { GatewayServices } from '../pipeline/gateway-services.ts';
import type { RouteContext } from '../pipeline/route-context.ts';
import { runGeneration } from '../pipeline/run-generation.ts';
import { apiBridge } from '../protocols/api-bridge.ts';
import { openAiChatProtocol } from '../protocols/openai-chat/openai-chat-protocol.ts';
import { passThroughApi } from '../protocols/pass-through/pass-through-api.ts';
import { PASS_THROUGH_PROVIDER_HEADER, parsePassThroughRequest, type PassThroughRequest } from '../protocols/pass-through/pass-through-request.ts';

/**
 * The protocols of the providers whose APIs a pass-through reaches: all but the Bedrock runtime's, whose
 * calls are signed with the gateway's own AWS credentials (its role may do more than a project should).
 */
const PASS_THROUGH_PROTOCOLS: readonly WireProtocolId[] = wireProtocolSchema.options.filter((protocol) => !PROVIDER_FAMILIES.bedrock.protocols.includes(protocol));

/**
 * Any other `/v1/*` route, for a project that allows pass-through: to the provider of the body's model
 * (allowlisted, failed over, metered like every request), or, when the body names none (`GET /v1/files`),
 * to the provider the `X-Gateway-Provider` header names, or the project's only OpenAI-protocol provider.
 */
export const passThroughEndpoint: GenerationEndpoint<PassThroughRequest> = {
  name: 'passthrough',
  clientProtocol: openAiChatProtocol,
  modelKinds: modelKindSchema.options,
  admitProject(project) {
    if (project.passThrough) return;
    throw new GatewayError('not_found', 'The gateway does not serve this route, and pass-through to the provider is off for this project (an administrator turns it on with "project update <id> --pass-through on").', {
      code: 'not_found',
    });
  },
  parse: parsePassThroughRequest,
  // A pass-through's body is no prompt: only what the provider reports is metered.
  promptText: () => '',
  maxOutputTokens: () => undefined,
  upstream: { protocols: PASS_THROUGH_PROTOCOLS, bridgeTo: (_target, body) => apiBridge(passThroughApi(body)) },
  targetsWithoutModel: (body, { config, orgRates }) => (body.model ? undefined : [passThroughTarget(body, config, orgRates)]),
};

function passThroughTarget(body: PassThroughRequest, config: ProjectConfig, orgRates: OrgRateCard): RouteTarget {
  const provider = chooseProvider(body, config);
  const protocols = config.providers.get(provider)?.protocols;
  if (protocols && !protocols.some((protocol) => PASS_THROUGH_PROTOCOLS.includes(protocol))) {
    throw new GatewayError('invalid_request', `Provider "${provider}" is Amazon Bedrock, which pass-through does not reach: its models are served on the gateway's own routes.`, {
      code: 'provider_not_passed_through',
      param: PASS_THROUGH_PROVIDER_HEADER,
    });
  }
  return providerTarget(provider, config, orgRates);
}

function chooseProvider(body: PassThroughRequest, config: ProjectConfig): string {
  if (body.namedProvider) return body.namedProvider;
  const openAi = [...config.providers.values()].filter((provider) => provider.protocols.some(isConversationProtocol) && provider.protocols.includes('openai-chat'));
  if (openAi.length === 1 && openAi[0]) return openAi[0].provider;
  throw new GatewayError(
    'invalid_request',
    `The request names no model, and the project has ${openAi.length === 0 ? 'no' : 'several'} OpenAI-protocol providers: name the provider with the ${PASS_THROUGH_PROVIDER_HEADER} header.`,
    { code: 'provider_required', param: PASS_THROUGH_PROVIDER_HEADER },
  );
}

export function handlePassThrough(request: GatewayRequest, services: GatewayServices, route: RouteContext): Promise<GatewayResponse> {
  refuseRouteOfAnotherGroup(request);
  return runGeneration(passThroughEndpoint, request, services, route);
}

/**
 * A path that, normalised, belongs to another route group (`/v1//messages` is `/v1/messages`) reaches
 * this one all the same: CloudFront chooses the function by the path as sent, repeated slashes kept. It is
 * the other group's route, with its own access policy and meter, so it is never passed through.
 */
function refuseRouteOfAnotherGroup(request: GatewayRequest): void {
  // No provider API lives under /v1/v1/: it is a base URL with /v1 given to a client that adds it again.
  const hint = baseUrlHint(request.path);
  if (hint) throw new GatewayError('not_found', `The gateway does not serve ${request.method} ${request.path}.${hint}`, { code: 'not_found' });
  if (routeGroupForPath(request.path).paths !== 'default') {
    throw new GatewayError('not_found', `The gateway serves ${request.path} on its own route, never as pass-through: send the request to ${request.path} exactly.`, { code: 'not_found' });
  }
  // Read leniently too: `/v1/Messages` is the messages group's route to an upstream that ignores case.
  if (routeGroupForPath(lenientRequestPath(request.path)).paths !== 'default') {
    throw lookalikeOfRouteError(request.path);
  }
}
