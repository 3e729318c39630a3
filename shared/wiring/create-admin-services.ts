import type { AdminServices } from '../admin/admin-services.ts';
import type { RuntimeConfig } from '../config/runtime-config.ts';
import { createConfigCaches, type ConfigCaches } from '../pipeline/config-caches.ts';
import { DynamoAuditTrail } from '../adapters/aws/dynamo-audit-trail.ts';
import { DynamoMembershipStore } from '../adapters/aws/dynamo-membership-store.ts';
import { createDefaultAwsCredentials } from '../adapters/aws/default-aws-credentials.ts';
import type { AwsCredentialSource } from '../core/ports.ts';
import { createAdapters } from './create-adapters.ts';
import { secureRandomBytes } from './secure-random-bytes.ts';

/**
 * The admin function's services; `caches` are the route groups' when they share its process (the local
 * host); calls to AWS are signed with `awsCredentials`, else the SDK's default chain (the function's role).
 */
export function createAdminServices(config: RuntimeConfig, dependencies: { caches?: ConfigCaches; awsCredentials?: AwsCredentialSource } = {}): AdminServices {
  const adapters = createAdapters(config, dependencies.awsCredentials ?? createDefaultAwsCredentials());
  const clock = { now: () => Date.now() };
  return {
    ...adapters,
    // Only the admin and console functions manage members and read the audit trail: the route groups' bundles stay without them.
    memberships: new DynamoMembershipStore(adapters.documents, config.GATEWAY_PROJECTS_TABLE),
    audit: new DynamoAuditTrail(adapters.documents, config.GATEWAY_PROJECTS_TABLE),
    clock,
    randomBytes: secureRandomBytes,
    caches: dependencies.caches ?? createConfigCaches(clock),
    allowPrivateUpstreams: config.GATEWAY_ALLOW_PRIVATE_UPSTREAMS,
  };
}
