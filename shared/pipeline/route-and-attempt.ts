import { toGatewayError } from '../core/errors.ts';
import { planRoute, type RouteTarget } from '../core/plan-route.ts';
import type { ProviderProtocol } from '../core/project-config.ts';
import { parseProviderPreferences } from '../core/provider-preferences.ts';
import type { GatewayRequest } from '../http/gateway-http.ts';
import type { AdmittedRequest } from './admit-request.ts';
import { admitUsage, type UsageAdmission, type UsageEstimate } from './admit-usage.ts';
import { readAttribution } from './attribution.ts';
import { AttemptsExhaustedError, coolDownKey, tryTargets, type ServedAttempt, type UpstreamRequest } from './failover.ts';
import type { GatewayServices } from './gateway-services.ts';
import type { RouteContext } from './route-context.ts';
import { recordUsage, ZERO_USAGE, type RequestMeteringContext } from './record-usage.ts';

/** The routing fields every generation endpoint reads (spec 2.2), beside its other parameters. */
export interface RoutableBody {
  model: string;
  models?: string[] | undefined;
  route?: 'fallback' | undefined;
  provider?: unknown;
  stream?: boolean | null | undefined;
}

export interface AttemptPlan {
  /** The endpoint's name in usage records, e.g. `chat.completions`. */
  endpoint: string;
  /** The provider protocols the endpoint serves, natively or by translation. */
  protocols: ProviderProtocol[];
  /** The admission bound, computed only when a token limit or a prepaid balance needs it. */
  estimate: () => UsageEstimate;
  requestFor: (target: RouteTarget) => UpstreamRequest;
}

export interface ServedRequest extends ServedAttempt {
  metering: RequestMeteringContext;
  admission: UsageAdmission;
  /** The parts of the usage record that do not depend on the answer. */
  attempt: {
    model: string;
    provider: string;
    rate: RouteTarget['rate'];
    streamed: boolean;
    fallbackAttempts: number;
    upstreamRespondedAt: number;
  };
  /** Response headers naming what served, with the rate-limit headers. */
  servedBy: Record<string, string>;
}

/**
 * Steps 3–5 of the request path, the same for every generation endpoint: plan the targets, admit the
 * usage (rate limits, balance reservation), try the targets with failover. When every target failed, the
 * request is still metered (which settles its reservation) before the error is thrown; when nothing was
 * tried, the reservation is given back.
 */
export async function routeAndAttempt(
  request: GatewayRequest,
  services: GatewayServices,
  route: RouteContext,
  admitted: AdmittedRequest,
  body: RoutableBody & Record<string, unknown>,
  plan: AttemptPlan,
): Promise<ServedRequest> {
  const { key, config, orgRates } = admitted;
  const { project } = config;
  const preferences = parseProviderPreferences(body.provider);
  const targets = planRoute(
    {
      model: body.model,
      fallbackModels: body.models ?? [],
      failoverEnabled: body.route === 'fallback' || project.failover,
      preferences,
      protocols: plan.protocols,
      // Only `require_parameters` looks at them; sent as null or false, a parameter asks for nothing.
      parameters: preferences.require_parameters
        ? Object.entries(body).filter(([, value]) => value !== null && value !== undefined && value !== false).map(([name]) => name)
        : [],
      isCoolingDown: (slug) => services.coolDown.isCoolingDown(coolDownKey(project.projectId, slug)),
    },
    config,
    orgRates,
  );
  const admission = await admitUsage(services, { key, project, targets }, plan.estimate);
  const streamed = body.stream === true;
  const metering: RequestMeteringContext = {
    requestId: route.requestId,
    projectId: project.projectId,
    keyId: key.keyId,
    endpoint: plan.endpoint,
    attribution: readAttribution(request.headers),
    startedAt: route.receivedAt,
    admission,
  };
  const describe = (target: RouteTarget, fallbackAttempts: number) => ({
    model: target.model.slug,
    provider: target.provider.provider,
    rate: target.rate,
    streamed,
    fallbackAttempts,
  });

  let served: ServedAttempt;
  try {
    served = await tryTargets(targets, plan.requestFor, {
      services,
      projectId: project.projectId,
      firstByteTimeoutMs: project.upstreamFirstByteTimeoutMs ?? services.settings.upstreamFirstByteTimeoutMs,
      deadlineAt: route.receivedAt + (project.requestDeadlineMs ?? services.settings.requestDeadlineMs),
    });
  } catch (thrown) {
    const error = toGatewayError(thrown);
    const last = error instanceof AttemptsExhaustedError ? error.failures.at(-1) : undefined;
    if (error instanceof AttemptsExhaustedError && last) {
      await recordUsage(services, metering, { ...describe(last.target, error.failures.length), status: 'failed', httpStatus: error.status, errorCode: error.code, usage: ZERO_USAGE });
    } else {
      await services.balances.release(project.projectId, admission.reservedNanos).catch(() => undefined);
    }
    throw error;
  }
  const { target, failures } = served;
  return {
    ...served,
    metering,
    admission,
    attempt: { ...describe(target, failures.length), upstreamRespondedAt: services.clock.now() },
    servedBy: { ...admission.headers, 'x-gateway-model': target.model.slug, 'x-gateway-provider': target.provider.provider, 'x-generation-id': route.requestId },
  };
}
