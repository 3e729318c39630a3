import type { ProviderConfig } from '../core/project-config.ts';

/** One upstream call as the credential step sees it (a request signer needs all of it). */
export interface OutgoingCall {
  url: string;
  method: string;
  headers: Record<string, string>;
  body: string | Uint8Array;
}

/**
 * Adds the provider's credential the way the provider takes it: a bearer token, Anthropic's `x-api-key`,
 * or nothing (the offline mock; a provider without a stored key). The transport calls this for every
 * attempt, so a provider that signs its requests adds its signer here.
 */
export async function authorizeCall(provider: Pick<ProviderConfig, 'auth'>, apiKey: string | undefined, call: OutgoingCall): Promise<Record<string, string>> {
  if (!apiKey) return call.headers;
  switch (provider.auth) {
    case 'bearer':
      return { ...call.headers, authorization: `Bearer ${apiKey}` };
    case 'x-api-key':
      return { ...call.headers, 'x-api-key': apiKey };
    case 'none':
      return call.headers;
  }
}
