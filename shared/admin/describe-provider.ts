import type { ProviderConfig } from '../core/project-config.ts';

/** A configured provider, never its key: only whether the secret store holds one. */
export function describeProvider(provider: ProviderConfig) {
  return {
    provider: provider.provider,
    protocols: provider.protocols,
    auth: provider.auth,
    base_url: provider.baseUrl,
    has_api_key: provider.hasApiKey,
    ...(provider.aws ? { region: provider.aws.region, ...(provider.aws.profile ? { profile: provider.aws.profile } : {}) } : {}),
  };
}
