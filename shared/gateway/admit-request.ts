import { authenticateProjectKey, extractProjectKey } from '../core/authenticate.ts';
import { configUnavailable, GatewayError } from '../core/errors.ts';
import type { KeyRecord } from '../core/key-record.ts';
import type { OrgRateCard, ProjectConfig } from '../core/project-config.ts';
import type { GatewayRequest } from '../http/gateway-http.ts';
import type { GatewayServices } from './gateway-services.ts';

export interface AdmittedRequest {
  key: KeyRecord;
  config: ProjectConfig;
  orgRates: OrgRateCard;
}

/** Runs a store read, turning a store failure into 503 so that no request is decided on missing data. */
async function readConfig<T>(read: () => Promise<T>): Promise<T> {
  try {
    return await read();
  } catch (error) {
    throw configUnavailable(error);
  }
}

/**
 * Steps 1-3 of the request path: authenticate the project key, load the project (both cached), and
 * refuse what the project may not do. Limits and balances join here with the routing issue.
 */
export async function admitRequest(request: GatewayRequest, services: GatewayServices): Promise<AdmittedRequest> {
  const { caches } = services;
  const presentedKey = extractProjectKey(request.headers);
  const key = await authenticateProjectKey(presentedKey, (hash) =>
    readConfig(() => caches.keys.get(hash, () => services.keys.findByHash(hash))),
  );
  const [config, orgRates] = await Promise.all([
    readConfig(() => caches.projects.get(key.projectId, () => services.projects.loadProjectConfig(key.projectId))),
    readConfig(() => caches.orgRates.get('org', () => services.projects.loadOrgRateCard())),
  ]);
  if (!config) {
    throw new GatewayError('permission', 'This key belongs to a project that no longer exists.', {
      code: 'project_not_found',
    });
  }
  if (config.project.plan !== 'active') {
    throw new GatewayError('permission', `The project "${config.project.projectId}" has no active plan.`, {
      code: 'plan_inactive',
    });
  }
  return { key, config, orgRates };
}

/** The provider's API key, from the secret store (cached); `undefined` for providers that need none. */
export async function loadProviderApiKey(
  services: GatewayServices,
  projectId: string,
  provider: string,
): Promise<string | undefined> {
  return readConfig(() =>
    services.caches.providerKeys.get(`${projectId}/${provider}`, () => services.secrets.getApiKey(projectId, provider)),
  );
}
