import type { ProviderConfig } from '../core/project-config.ts';
import { loadProviderApiKey, type AdmittedRequest } from '../pipeline/admit-request.ts';
import type { GatewayServices } from '../pipeline/gateway-services.ts';
import { attemptLimits } from '../pipeline/plan-targets.ts';
import type { RouteContext } from '../pipeline/route-context.ts';
import { callUpstream } from '../transport/call-upstream.ts';
import { authorizeCall } from '../transport/provider-auth.ts';

/**
 * Calls the provider that made an object the gateway passes through (a stored response, a video) at `path`
 * below its base URL, with no body: credentials and time-out as for any attempt. The key comes back too, to
 * scrub it from an error answer.
 */
export async function callOwningProvider(
  services: GatewayServices,
  admitted: AdmittedRequest,
  route: RouteContext,
  provider: ProviderConfig,
  call: { method: string; path: string; accept: string },
): Promise<{ response: Response; apiKey: string | undefined }> {
  const apiKey = await loadProviderApiKey(services, admitted.config.project.projectId, provider.provider);
  const url = `${provider.baseUrl.replace(/\/+$/, '')}${call.path}`;
  const response = await callUpstream({
    fetch: services.fetch,
    provider: provider.provider,
    url,
    method: call.method,
    headers: await authorizeCall(provider, apiKey, { url, method: call.method, headers: { accept: call.accept }, body: '' }, services.awsCredentials),
    firstByteTimeoutMs: attemptLimits(services, admitted, route.receivedAt).firstByteTimeoutMs,
  });
  return { response, apiKey };
}
