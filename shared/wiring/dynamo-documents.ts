import type { RuntimeConfig } from '../config/runtime-config.ts';
import type { UsageLedgerTables } from '../adapters/aws/dynamo-generation-lookup.ts';
import type { DynamoDocuments } from '../adapters/aws/dynamo-documents.ts';
import { DynamoJsonDocuments } from '../adapters/aws/dynamo-json-documents.ts';
import type { AwsCredentials, AwsCredentialSource } from '../core/ports.ts';
import { AwsJsonService, regionalEndpoint } from '../transport/aws-json-service.ts';
import { awsTransport } from './aws-transport.ts';

/** What the embedded store takes: whatever credentials (it checks that a call is signed, not by whom). */
const EMBEDDED_STORE_CREDENTIALS = { accessKeyId: 'local', secretAccessKey: 'local' };

/**
 * The DynamoDB documents the adapters share: DynamoDB in AWS (its endpoint overrides honoured, as the SDK
 * does), the local host's embedded store when GATEWAY_DYNAMODB_ENDPOINT names it. Signed with the
 * function's credentials, over the transport of its AWS calls (aws-transport.ts). A module of its own so
 * that a function needing DynamoDB alone (the writer) does not load the other services at its cold start.
 */
export function createDynamoDocuments(config: RuntimeConfig, credentials: AwsCredentialSource): DynamoDocuments {
  if (config.GATEWAY_DYNAMODB_ENDPOINT !== undefined) return embeddedStoreDocuments(config.GATEWAY_DYNAMODB_ENDPOINT, config.AWS_REGION);
  const endpoint = regionalEndpoint('dynamodb', config.AWS_REGION, config.AWS_ENDPOINT_URL_DYNAMODB ?? config.AWS_ENDPOINT_URL);
  return dynamoDocumentsAt(endpoint, config.AWS_REGION, () => credentials.credentials(undefined));
}

/** The documents of the local host's embedded DynamoDB-compatible store at `endpoint`. */
export function embeddedStoreDocuments(endpoint: string, region = 'local'): DynamoDocuments {
  return dynamoDocumentsAt(endpoint, region, async () => EMBEDDED_STORE_CREDENTIALS);
}

function dynamoDocumentsAt(endpoint: string, region: string, credentials: () => Promise<AwsCredentials>): DynamoDocuments {
  return new DynamoJsonDocuments(new AwsJsonService({ signingName: 'dynamodb', targetPrefix: 'DynamoDB_20120810', jsonVersion: '1.0', region, endpoint, credentials, fetch: awsTransport() }));
}

/**
 * The usage ledger's tables (generation records, and the project spend they add to). The ledger itself is
 * built where it is used: the writer writes it at once, the route groups read it rarely (a generation's
 * lookup, a stored response's owner), so they load it on first use.
 */
export function usageLedgerTables(config: RuntimeConfig): UsageLedgerTables {
  return { generations: config.GATEWAY_GENERATIONS_TABLE, projects: config.GATEWAY_PROJECTS_TABLE, retentionDays: config.GATEWAY_GENERATION_RETENTION_DAYS };
}
