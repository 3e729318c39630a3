// A handler that resolves AWS endpoints as a client does without an override: the endpoint rules call the
// partition functions that @aws-sdk/core registers as a side effect of one of its modules (util-endpoints/aws.js).
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { S3Client } from '@aws-sdk/client-s3';
import { SecretsManagerClient } from '@aws-sdk/client-secrets-manager';

export async function handler(): Promise<string[]> {
  const clients = [new DynamoDBClient({ region: 'eu-west-1' }), new SecretsManagerClient({ region: 'cn-north-1' }), new S3Client({ region: 'us-gov-west-1' })];
  const urls: string[] = [];
  for (const client of clients) {
    const parameters = { Region: await client.config.region(), UseFIPS: false, UseDualStack: false, Bucket: 'usage' };
    urls.push(client.config.endpointProvider(parameters as Parameters<typeof client.config.endpointProvider>[0], {}).url.href);
  }
  return urls;
}
