import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { RuntimeConfig } from '../config/runtime-config.ts';
import type { UsageLedgerTables } from '../adapters/aws/dynamo-generation-lookup.ts';
import { awsClientConfig } from './aws-client-config.ts';

/**
 * The document client the DynamoDB adapters share: DynamoDB in AWS, the local host's embedded store when
 * GATEWAY_DYNAMODB_ENDPOINT names it. A module of its own so that a function needing DynamoDB alone (the
 * writer) does not load the other clients at its cold start.
 */
export function createDynamoDocuments(config: RuntimeConfig): DynamoDBDocumentClient {
  const dynamo = new DynamoDBClient({
    ...awsClientConfig(config.AWS_REGION),
    ...(config.GATEWAY_DYNAMODB_ENDPOINT !== undefined
      ? { endpoint: config.GATEWAY_DYNAMODB_ENDPOINT, credentials: { accessKeyId: 'local', secretAccessKey: 'local' } }
      : {}),
  });
  return DynamoDBDocumentClient.from(dynamo, { marshallOptions: { removeUndefinedValues: true } });
}

/**
 * The usage ledger's tables (generation records, and the project spend they add to). The ledger itself is
 * built where it is used: the writer writes it at once, the route groups read it rarely (a generation's
 * lookup, a stored response's owner), so they load it on first use.
 */
export function usageLedgerTables(config: RuntimeConfig): UsageLedgerTables {
  return { generations: config.GATEWAY_GENERATIONS_TABLE, projects: config.GATEWAY_PROJECTS_TABLE, retentionDays: config.GATEWAY_GENERATION_RETENTION_DAYS };
}
