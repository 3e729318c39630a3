import type { RuntimeConfig } from '../config/runtime-config.ts';
import type { AwsCredentialSource } from '../core/ports.ts';
import { awsTransport } from './aws-transport.ts';
import { S3Objects } from '../transport/s3-objects.ts';

/** S3's objects as signed calls, with the function's credentials, over the transport of its AWS calls (aws-transport.ts). */
export function createS3Objects(config: RuntimeConfig, credentials: AwsCredentialSource): S3Objects {
  return new S3Objects({
    region: config.AWS_REGION,
    endpoint: config.AWS_ENDPOINT_URL_S3 ?? config.AWS_ENDPOINT_URL,
    credentials: () => credentials.credentials(undefined),
    fetch: awsTransport(),
  });
}
