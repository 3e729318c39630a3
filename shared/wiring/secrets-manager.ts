import type { RuntimeConfig } from '../config/runtime-config.ts';
import type { AwsCredentialSource } from '../core/ports.ts';
import { AwsJsonService, regionalEndpoint } from '../transport/aws-json-service.ts';
import { awsTransport } from './aws-transport.ts';

/**
 * Secrets Manager in its JSON protocol, signed with the function's credentials (its endpoint overrides
 * honoured, as the SDK does), over the transport of its AWS calls (aws-transport.ts).
 */
export function createSecretsManager(config: RuntimeConfig, credentials: AwsCredentialSource): AwsJsonService {
  return new AwsJsonService({
    signingName: 'secretsmanager',
    targetPrefix: 'secretsmanager',
    jsonVersion: '1.1',
    region: config.AWS_REGION,
    endpoint: regionalEndpoint('secretsmanager', config.AWS_REGION, config.AWS_ENDPOINT_URL_SECRETS_MANAGER ?? config.AWS_ENDPOINT_URL),
    credentials: () => credentials.credentials(undefined),
    fetch: awsTransport(),
  });
}
