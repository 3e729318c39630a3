import type { ModelKind, WireProtocolId } from '../core/project-config.ts';
import { planRoute, type RouteTarget } from '../core/plan-route.ts';
import { parseProviderPreferences } from '../core/provider-preferences.ts';
import type { AdmittedRequest } from './admit-request.ts';
import { coolDownKey } from './failover.ts';
import type { RoutableBody } from './generation-endpoint.ts';
import type { GatewayServices } from './gateway-services.ts';

export interface TargetScope {
  /** The wire protocols the endpoint can reach (natively or by translation). */
  protocols: readonly WireProtocolId[];
  modelKinds: readonly ModelKind[];
}

/**
 * Step 4 of the request path: the targets to try, in order, for a body's `model`, `models`, `route` and
 * `provider` preferences, with recently failed targets last.
 */
export function planTargets(services: GatewayServices, admitted: AdmittedRequest, body: RoutableBody, scope: TargetScope): RouteTarget[] {
  const { config, orgRates } = admitted;
  const { project } = config;
  const preferences = parseProviderPreferences(body.provider);
  return planRoute(
    {
      model: body.model,
      fallbackModels: body.models ?? [],
      failoverEnabled: body.route === 'fallback' || project.failover,
      preferences,
      protocols: scope.protocols,
      modelKinds: scope.modelKinds,
      // Only `require_parameters` looks at them; sent as null or false, a parameter asks for nothing.
      parameters: preferences.require_parameters
        ? Object.entries(body).filter(([, value]) => value !== null && value !== undefined && value !== false).map(([name]) => name)
        : [],
      isCoolingDown: (slug) => services.coolDown.isCoolingDown(coolDownKey(project.projectId, slug)),
    },
    config,
    orgRates,
  );
}

/** The time limits of the request's attempts: per project, else the gateway's. */
export function attemptLimits(services: GatewayServices, admitted: AdmittedRequest, receivedAt: number) {
  const { project } = admitted.config;
  return {
    firstByteTimeoutMs: project.upstreamFirstByteTimeoutMs ?? services.settings.upstreamFirstByteTimeoutMs,
    deadlineAt: receivedAt + (project.requestDeadlineMs ?? services.settings.requestDeadlineMs),
  };
}
