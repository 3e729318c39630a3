import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConditionalCheckFailedException, DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { mockClient, type AwsClientStub } from 'aws-sdk-client-mock';
import { DynamoKeyStore } from '../../shared/adapters/aws/dynamo-key-store.ts';
import type { KeyRecord } from '../../shared/core/key-record.ts';
import { startEmbeddedStore } from '../../tools/local-host/embedded-store.ts';
import { embeddedStoreDocuments } from '../../shared/wiring/dynamo-documents.ts';
import { documentsOverSdk } from './sdk-documents.ts';
import type { DynamoDocuments } from '../../shared/adapters/aws/dynamo-documents.ts';

/** Key hashes for the key store's tests. */
export const hashA = 'a'.repeat(64);
export const hashB = 'b'.repeat(64);
export const hashC = 'c'.repeat(64);

export function keyRecord(overrides: Partial<KeyRecord> = {}): KeyRecord {
  return {
    keyHash: hashA,
    keyId: 'key_aaaaaaaaaaaaaaaa',
    projectId: 'alpha',
    name: 'default',
    hint: 'gw.AbCd…wXyZ',
    createdAt: '2025-01-02T03:04:05.000Z',
    ...overrides,
  };
}

export function conditionFailed(): ConditionalCheckFailedException {
  return new ConditionalCheckFailedException({ message: 'The conditional request failed', $metadata: {} });
}

/** A DynamoKeyStore on table `keys-table` whose DynamoDB commands are mocked (aws-sdk-client-mock). */
export function mockedKeyStore(): { dynamo: AwsClientStub<DynamoDBDocumentClient>; store: DynamoKeyStore } {
  const dynamo = mockClient(DynamoDBDocumentClient);
  const store = new DynamoKeyStore(documentsOverSdk(DynamoDBDocumentClient.from(new DynamoDBClient({ region: 'us-east-1' }))), 'keys-table');
  return { dynamo, store };
}

/** A DynamoKeyStore on the embedded store's table `test-keys`, in a throw-away directory. */
export async function embeddedKeyStore(): Promise<{ store: DynamoKeyStore; documents: DynamoDocuments; close(): Promise<void> }> {
  const dataDir = await mkdtemp(join(tmpdir(), 'dynamo-key-store-'));
  const embedded = await startEmbeddedStore(dataDir, { keys: 'test-keys', projects: 'test-projects' });
  const documents = embeddedStoreDocuments(embedded.endpoint);
  return {
    store: new DynamoKeyStore(documents, 'test-keys'),
    documents,
    async close() {
      await embedded.close();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}
