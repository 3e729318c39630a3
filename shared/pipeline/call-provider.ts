import type { ProviderConfig } from '../core/project-config.ts';
import { callUpstream } from '../transport/call-upstream.ts';
import { authorizeCall } from '../transport/provider-auth.ts';
import { loadProviderApiKey } from './admit-request.ts';
import type { GatewayServices } from './gateway-services.ts';

/** A request to one provider: the path below its base URL, headers, and a body unless it is a GET. */
export interface ProviderCall {
  path: string;
  method?: string;
  headers: Record<string, string>;
  body?: string | Uint8Array;
}

/**
 * Sends one call to a provider with its credential: its key from the secret store, or none for a provider
 * signed with the gateway's AWS credentials. Every upstream call goes through here (an attempt of the
 * failover, a stored object passed through), so all are authorized and timed out alike. The key comes
 * back to scrub it from an error answer. `exchange`, when given, lets the caller abort the call later,
 * while its body is read.
 */
export async function callProvider(
  services: GatewayServices,
  projectId: string,
  provider: ProviderConfig,
  call: ProviderCall,
  firstByteTimeoutMs: number,
  exchange?: AbortController,
): Promise<{ response: Response; apiKey: string | undefined }> {
  const apiKey = provider.auth === 'aws-sigv4' ? undefined : await loadProviderApiKey(services, projectId, provider.provider);
  const url = `${provider.baseUrl.replace(/\/+$/, '')}${call.path}`;
  const method = call.method ?? 'POST';
  const response = await callUpstream({
    fetch: services.fetch,
    provider: provider.provider,
    url,
    method,
    headers: await authorizeCall(provider, apiKey, { url, method, headers: call.headers, body: call.body ?? '' }, services.awsCredentials),
    ...(call.body !== undefined ? { body: call.body } : {}),
    firstByteTimeoutMs,
    ...(exchange ? { exchange } : {}),
  });
  return { response, apiKey };
}
