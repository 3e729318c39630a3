import { authenticateProjectKey, extractProjectKey } from '../core/authenticate.ts';
import { configUnavailable, GatewayError } from '../core/errors.ts';
import type { KeyRecord } from '../core/key-record.ts';
import type { OrgRateCard, ProjectConfig } from '../core/project-config.ts';
import { enforceAccessPolicy } from '../core/access-policy.ts';
import type { EndpointName } from '../core/endpoints.ts';
import type { GatewayRequest } from '../http/gateway-http.ts';
import type { GatewayServices } from './gateway-services.ts';

export interface AdmittedRequest {
  key: KeyRecord;
  config: ProjectConfig;
  orgRates: OrgRateCard;
}

/** Runs a store read, turning a store failure into 503 so that no request is decided on missing data. */
export async function readStore<T>(read: () => Promise<T>): Promise<T> {
  try {
    return await read();
  } catch (error) {
    throw configUnavailable(error);
  }
}

/**
 * The client's address. Behind CloudFront the function URL sees CloudFront's address, so the viewer's
 * comes from `CloudFront-Viewer-Address` ("ip:port"), which CloudFront sets itself — trusted only when the
 * origin check proves the request came through CloudFront (else a client could write it).
 * X-Forwarded-For is never trusted.
 */
export function clientAddress(request: GatewayRequest, behindCloudFront: boolean): string {
  const viewer = behindCloudFront ? request.headers['cloudfront-viewer-address'] : undefined;
  if (viewer && viewer.lastIndexOf(':') > 0) return viewer.slice(0, viewer.lastIndexOf(':')).replace(/^\[|\]$/g, '');
  return request.sourceIp;
}

/**
 * Steps 1-3 of the request path that need no body: authenticate the project key, load the project (both
 * cached), and refuse what the project or its access policy does not allow (403). Rate limits and the
 * balance follow in admitUsage, for requests that will reach an upstream.
 */
export async function admitRequest(request: GatewayRequest, services: GatewayServices, endpoint: EndpointName): Promise<AdmittedRequest> {
  const { caches } = services;
  const presentedKey = extractProjectKey(request.headers);
  const key = await authenticateProjectKey(presentedKey, (hash) =>
    readStore(() => caches.keys.get(hash, () => services.keys.findByHash(hash))),
  );
  const [config, orgRates] = await Promise.all([
    readStore(() => caches.projects.get(key.projectId, () => services.projects.loadProjectConfig(key.projectId))),
    readStore(() => caches.orgRates.get('org', () => services.projects.loadOrgRateCard())),
  ]);
  if (!config) {
    throw new GatewayError('permission', 'This key belongs to a project that no longer exists.', {
      code: 'project_not_found',
    });
  }
  const { project } = config;
  if (project.plan !== 'active') {
    throw new GatewayError('permission', `The project "${project.projectId}" has no active plan.`, { code: 'plan_inactive' });
  }
  if (key.disabled) throw new GatewayError('permission', 'This project key is disabled.', { code: 'key_disabled' });
  if (key.member && project.removedMembers?.includes(key.member)) {
    throw new GatewayError('permission', `The member "${key.member}" is no longer part of the project "${project.projectId}".`, {
      code: 'member_removed',
    });
  }
  enforceAccessPolicy(project, {
    clientIp: clientAddress(request, services.settings.behindCloudFront),
    environment: request.headers['x-environment'] ?? request.headers['x-llm-environment'],
    endpoint,
  });
  return { key, config, orgRates };
}

/** The provider's API key, from the secret store (cached); `undefined` for providers that need none. */
export async function loadProviderApiKey(
  services: GatewayServices,
  projectId: string,
  provider: string,
): Promise<string | undefined> {
  return readStore(() =>
    services.caches.providerKeys.get(`${projectId}/${provider}`, () => services.secrets.getApiKey(projectId, provider)),
  );
}
