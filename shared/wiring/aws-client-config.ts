import { Sha256 } from '../transport/sha256.ts';

/**
 * What every AWS SDK client the functions and the local host make starts from: its region, and the
 * project's SHA-256 hasher, which gives the SDK's digests without the two exceptions Node 24 raises per
 * HMAC for the SDK's own (shared/transport/sha256.ts). One place, so no client is left with the slow one.
 */
export function awsClientConfig(region: string): { region: string; sha256: typeof Sha256 } {
  return { region, sha256: Sha256 };
}
