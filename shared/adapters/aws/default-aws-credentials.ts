import { defaultProvider } from '@aws-sdk/credential-provider-node';
import type { AwsCredentialIdentityProvider } from '@smithy/types';
import type { AwsCredentialSource } from '../../core/ports.ts';

/**
 * The AWS SDK's default credential chain, one per profile: environment variables (in Lambda, the
 * function's role), SSO, shared config and credentials files, process credentials, container and instance
 * metadata. The SDK's provider caches what it found and refreshes it before it expires.
 */
export function createDefaultAwsCredentials(): AwsCredentialSource {
  const chains = new Map<string, AwsCredentialIdentityProvider>();
  return {
    async credentials(profile) {
      const name = profile ?? '';
      let chain = chains.get(name);
      if (!chain) {
        chain = defaultProvider(profile ? { profile } : {});
        chains.set(name, chain);
      }
      const { accessKeyId, secretAccessKey, sessionToken } = await chain();
      return { accessKeyId, secretAccessKey, ...(sessionToken ? { sessionToken } : {}) };
    },
  };
}
