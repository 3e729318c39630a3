import type { ModelKind, WireProtocolId } from '../core/project-config.ts';
import { planRoute, type RouteTarget } from '../core/plan-route.ts';
import { parseProviderPreferences } from '../core/provider-preferences.ts';
import type { AdmittedRequest } from './admit-request.ts';
import { coolDownKey } from './failover.ts';
import type { RoutableBody } from './generation-endpoint.ts';
import type { GatewayServices } from './gateway-services.ts';
import { originBudgetMs } from './origin-budget.ts';

export interface TargetScope {
  /** The wire protocols the endpoint can reach (natively or by translation). */
  protocols: readonly WireProtocolId[];
  modelKinds: readonly ModelKind[];
  /** Why the endpoint reaches only those protocols, for the 400 when the request's models speak none. */
  onlyThoseBecause?: string | undefined;
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
      ...(scope.onlyThoseBecause ? { onlyThoseProtocolsBecause: scope.onlyThoseBecause } : {}),
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

/**
 * The time limits of the request's attempts: per project, else the gateway's. Behind CloudFront, a JSON
 * answer must start before the origin read timeout (nothing can be sent before it), so its attempts end by
 * then; a stream is committed early instead (commitAfterMs) and keeps the full limits.
 */
export function attemptLimits(services: GatewayServices, admitted: AdmittedRequest, receivedAt: number, streamed = true) {
  const { project } = admitted.config;
  const firstByteTimeoutMs = project.upstreamFirstByteTimeoutMs ?? services.settings.upstreamFirstByteTimeoutMs;
  const deadlineAt = receivedAt + (project.requestDeadlineMs ?? services.settings.requestDeadlineMs);
  const readTimeout = services.settings.originReadTimeoutMs;
  if (streamed || readTimeout === undefined) return { firstByteTimeoutMs, deadlineAt };
  const jsonBudget = originBudgetMs(readTimeout);
  return { firstByteTimeoutMs: Math.min(firstByteTimeoutMs, jsonBudget), deadlineAt: Math.min(deadlineAt, receivedAt + jsonBudget) };
}


/** How much longer a stream's status may be held back (undefined where no CloudFront stands in front). */
export function commitAfterMs(settings: GatewayServices['settings'], receivedAt: number, now: number): number | undefined {
  if (settings.originReadTimeoutMs === undefined) return undefined;
  return Math.max(0, originBudgetMs(settings.originReadTimeoutMs) - (now - receivedAt));
}
