import { S3Client } from '@aws-sdk/client-s3';
import { S3UsageArchive } from '../adapters/aws/s3-usage-archive.ts';
import { FileUsageArchive } from '../adapters/local/file-usage-archive.ts';
import { requireSetting, type RuntimeConfig } from '../config/runtime-config.ts';
import type { UsageArchive } from '../core/ports.ts';
import type { UsageWriterDeps } from '../usage-writer/process-usage-batch.ts';
import { DynamoUsageLedger } from '../adapters/aws/dynamo-usage-ledger.ts';
import { awsClientConfig } from './aws-client-config.ts';
import { createAdapters, usageLedgerTables } from './create-adapters.ts';

/** The usage files: the S3 bucket in AWS, a directory locally (GATEWAY_USAGE_ARCHIVE). */
export function createUsageArchive(config: RuntimeConfig): UsageArchive {
  if (config.GATEWAY_USAGE_ARCHIVE === 'file') return new FileUsageArchive(requireSetting(config, 'GATEWAY_USAGE_DIR'));
  return new S3UsageArchive(new S3Client(awsClientConfig(config.AWS_REGION)), requireSetting(config, 'GATEWAY_USAGE_BUCKET'));
}

/** The writer's ledger (DynamoDB), archive (S3, or the local directory) and the keys' last-use stamps. */
export function createUsageWriterDeps(config: RuntimeConfig, reportFailure: UsageWriterDeps['reportFailure']): UsageWriterDeps {
  const adapters = createAdapters(config);
  return { ledger: new DynamoUsageLedger(adapters.documents, usageLedgerTables(config)), archive: createUsageArchive(config), keyLastUse: adapters.keys, reportFailure };
}
