import type { AwsCredentialIdentityProvider } from '@smithy/types';
import { loadOnFirstUse } from '../../core/load-on-first-use.ts';
import type { AwsCredentialSource } from '../../core/ports.ts';

/** Loaded by the first call that needs the gateway's own AWS credentials (Bedrock), not at import. */
const defaultCredentialChain = loadOnFirstUse(async () => (await import('@aws-sdk/credential-provider-node')).defaultProvider);

/**
 * The AWS SDK's default credential chain, one per profile: environment variables (in Lambda, the
 * function's role), SSO, shared config and credentials files, process credentials, container and instance
 * metadata. The SDK's provider caches what it found and refreshes it before it expires.
 */
export function createDefaultAwsCredentials(): AwsCredentialSource {
  const chains = new Map<string, () => Promise<AwsCredentialIdentityProvider>>();
  return {
    async credentials(profile) {
      const name = profile ?? '';
      let chain = chains.get(name);
      if (!chain) {
        chain = loadOnFirstUse(async () => (await defaultCredentialChain())(profile ? { profile } : {}));
        chains.set(name, chain);
      }
      const { accessKeyId, secretAccessKey, sessionToken } = await (await chain())();
      return { accessKeyId, secretAccessKey, ...(sessionToken ? { sessionToken } : {}) };
    },
  };
}
