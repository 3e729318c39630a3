import type { RuntimeConfig } from '../config/runtime-config.ts';
import type { UsageWriterDeps } from '../usage-writer/process-usage-batch.ts';
import { DynamoKeyStore } from '../adapters/aws/dynamo-key-store.ts';
import { DynamoUsageLedger, type ResponseIdTakenListener } from '../adapters/aws/dynamo-usage-ledger.ts';
import { createUsageArchive } from './create-usage-archive.ts';
import { createDefaultAwsCredentials } from '../adapters/aws/default-aws-credentials.ts';
import { createDynamoDocuments, usageLedgerTables } from './dynamo-documents.ts';

/**
 * The writer's ledger (DynamoDB), archive (S3, or the local directory) and the keys' last-use stamps. Built
 * from DynamoDB and S3 alone: the writer reads no provider secret, so its cold start does not build
 * Secrets Manager's.
 */
export function createUsageWriterDeps(
  config: RuntimeConfig,
  reportFailure: UsageWriterDeps['reportFailure'],
  reportResponseIdTaken?: ResponseIdTakenListener,
): UsageWriterDeps {
  const documents = createDynamoDocuments(config, createDefaultAwsCredentials());
  return {
    ledger: new DynamoUsageLedger(documents, usageLedgerTables(config), reportResponseIdTaken),
    archive: createUsageArchive(config),
    keyLastUse: new DynamoKeyStore(documents, config.GATEWAY_KEYS_TABLE),
    reportFailure,
  };
}
