import { requireSetting, type RuntimeConfig } from '../config/runtime-config.ts';
import { DynamoProjectBalance } from '../adapters/aws/dynamo-project-balance.ts';
import { DynamoRateLimiter } from '../adapters/aws/dynamo-rate-limiter.ts';
import type { AwsCredentialSource, ProviderSecrets } from '../core/ports.ts';
import type { DynamoDocuments } from '../adapters/aws/dynamo-documents.ts';
import { DynamoKeyStore } from '../adapters/aws/dynamo-key-store.ts';
import { DynamoProjectStore } from '../adapters/aws/dynamo-project-store.ts';
import { SecretsManagerProviderSecrets } from '../adapters/aws/secrets-manager-provider-secrets.ts';
import { FileProviderSecrets } from '../adapters/local/file-provider-secrets.ts';
import { createDynamoDocuments } from './dynamo-documents.ts';
import { createSecretsManager } from './secrets-manager.ts';

export interface Adapters {
  keys: DynamoKeyStore;
  projects: DynamoProjectStore;
  secrets: ProviderSecrets;
  balances: DynamoProjectBalance;
  rateLimiter: DynamoRateLimiter;
  /** The document client the adapters share, for the stores only some functions build (video jobs, memberships, audit). */
  documents: DynamoDocuments;
}

/**
 * The same DynamoDB adapters serve AWS and the local host: locally the calls go to the embedded
 * DynamoDB-compatible store. Secrets come from Secrets Manager, or from the owner-only local file. Calls
 * to AWS are signed with `credentials` (the function's role in Lambda).
 */
export function createAdapters(config: RuntimeConfig, credentials: AwsCredentialSource): Adapters {
  const documents = createDynamoDocuments(config, credentials);
  const secrets =
    config.GATEWAY_SECRETS_BACKEND === 'file'
      ? new FileProviderSecrets(requireSetting(config, 'GATEWAY_SECRETS_FILE'))
      : new SecretsManagerProviderSecrets(createSecretsManager(config, credentials), config.GATEWAY_SECRET_PREFIX);
  return {
    keys: new DynamoKeyStore(documents, config.GATEWAY_KEYS_TABLE),
    projects: new DynamoProjectStore(documents, config.GATEWAY_PROJECTS_TABLE),
    secrets,
    balances: new DynamoProjectBalance(documents, config.GATEWAY_PROJECTS_TABLE),
    rateLimiter: new DynamoRateLimiter(documents, config.GATEWAY_COUNTERS_TABLE),
    documents,
  };
}
