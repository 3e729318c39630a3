import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { requireSetting, type RuntimeConfig } from '../config/runtime-config.ts';
import { DynamoProjectBalance } from '../adapters/aws/dynamo-project-balance.ts';
import { DynamoRateLimiter } from '../adapters/aws/dynamo-rate-limiter.ts';
import type { ProviderSecrets } from '../core/ports.ts';
import { DynamoKeyStore } from '../adapters/aws/dynamo-key-store.ts';
import { DynamoProjectStore } from '../adapters/aws/dynamo-project-store.ts';
import { SecretsManagerProviderSecrets } from '../adapters/aws/secrets-manager-provider-secrets.ts';
import { FileProviderSecrets } from '../adapters/local/file-provider-secrets.ts';
import { awsClientConfig } from './aws-client-config.ts';
import { createDynamoDocuments } from './dynamo-documents.ts';

export interface Adapters {
  keys: DynamoKeyStore;
  projects: DynamoProjectStore;
  secrets: ProviderSecrets;
  balances: DynamoProjectBalance;
  rateLimiter: DynamoRateLimiter;
  /** The document client the adapters share, for the stores only some functions build (video jobs, memberships, audit). */
  documents: DynamoDBDocumentClient;
}

/**
 * The same DynamoDB adapters serve AWS and the local host: locally the client points at the embedded
 * DynamoDB-compatible store. Secrets come from Secrets Manager, or from the owner-only local file.
 */
export function createAdapters(config: RuntimeConfig): Adapters {
  const documents = createDynamoDocuments(config);
  const secrets =
    config.GATEWAY_SECRETS_BACKEND === 'file'
      ? new FileProviderSecrets(requireSetting(config, 'GATEWAY_SECRETS_FILE'))
      : new SecretsManagerProviderSecrets(new SecretsManagerClient(awsClientConfig(config.AWS_REGION)), config.GATEWAY_SECRET_PREFIX);
  return {
    keys: new DynamoKeyStore(documents, config.GATEWAY_KEYS_TABLE),
    projects: new DynamoProjectStore(documents, config.GATEWAY_PROJECTS_TABLE),
    secrets,
    balances: new DynamoProjectBalance(documents, config.GATEWAY_PROJECTS_TABLE),
    rateLimiter: new DynamoRateLimiter(documents, config.GATEWAY_COUNTERS_TABLE),
    documents,
  };
}
