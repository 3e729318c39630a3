import type { RuntimeConfig } from '../config/runtime-config.ts';
import type { AwsCredentialSource } from '../core/ports.ts';
import { createNodeHttpFetch } from '../transport/node-http-fetch.ts';
import { S3Objects } from '../transport/s3-objects.ts';

/** S3's objects as signed calls, with the function's credentials, over a keep-alive transport of their own. */
export function createS3Objects(config: RuntimeConfig, credentials: AwsCredentialSource): S3Objects {
  return new S3Objects({
    region: config.AWS_REGION,
    endpoint: config.AWS_ENDPOINT_URL_S3 ?? config.AWS_ENDPOINT_URL,
    credentials: () => credentials.credentials(undefined),
    // The bucket is the deployment's, never a user's: an S3 VPC endpoint resolves to private addresses.
    fetch: createNodeHttpFetch({ allowPrivateAddresses: true }),
  });
}
