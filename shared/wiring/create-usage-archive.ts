import { createDefaultAwsCredentials } from '../adapters/aws/default-aws-credentials.ts';
import { S3UsageArchive } from '../adapters/aws/s3-usage-archive.ts';
import { FileUsageArchive } from '../adapters/local/file-usage-archive.ts';
import { requireSetting, type RuntimeConfig } from '../config/runtime-config.ts';
import { loadOnFirstUse } from '../core/load-on-first-use.ts';
import type { AwsCredentialSource, UsageArchive } from '../core/ports.ts';
import { awsClientConfig } from './aws-client-config.ts';
import { createS3Objects } from './s3-objects.ts';

/**
 * The usage files: the S3 bucket in AWS, a directory locally (GATEWAY_USAGE_ARCHIVE). A module of its own:
 * the usage compactor needs nothing else. Files are put and read by signed calls; S3's client, for listing
 * and deleting (the compactor's), loads on first use.
 */
export function createUsageArchive(config: RuntimeConfig, credentials: AwsCredentialSource = createDefaultAwsCredentials()): UsageArchive {
  if (config.GATEWAY_USAGE_ARCHIVE === 'file') return new FileUsageArchive(requireSetting(config, 'GATEWAY_USAGE_DIR'));
  const bucket = requireSetting(config, 'GATEWAY_USAGE_BUCKET');
  const listing = loadOnFirstUse(async () => {
    const [{ S3Client }, { S3UsageListing }] = await Promise.all([import('@aws-sdk/client-s3'), import('../adapters/aws/s3-usage-listing.ts')]);
    return new S3UsageListing(new S3Client(awsClientConfig(config.AWS_REGION)), bucket);
  });
  return new S3UsageArchive(createS3Objects(config, credentials), bucket, listing);
}
