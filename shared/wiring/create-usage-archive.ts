import { S3Client } from '@aws-sdk/client-s3';
import { S3UsageArchive } from '../adapters/aws/s3-usage-archive.ts';
import { FileUsageArchive } from '../adapters/local/file-usage-archive.ts';
import { requireSetting, type RuntimeConfig } from '../config/runtime-config.ts';
import type { UsageArchive } from '../core/ports.ts';
import { awsClientConfig } from './aws-client-config.ts';

/**
 * The usage files: the S3 bucket in AWS, a directory locally (GATEWAY_USAGE_ARCHIVE). A module of its own:
 * the usage compactor needs nothing else, and its cold start loads no DynamoDB or Secrets Manager client.
 */
export function createUsageArchive(config: RuntimeConfig): UsageArchive {
  if (config.GATEWAY_USAGE_ARCHIVE === 'file') return new FileUsageArchive(requireSetting(config, 'GATEWAY_USAGE_DIR'));
  return new S3UsageArchive(new S3Client(awsClientConfig(config.AWS_REGION)), requireSetting(config, 'GATEWAY_USAGE_BUCKET'));
}
