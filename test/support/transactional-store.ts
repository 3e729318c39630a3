import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CreateTableCommand, DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, GetCommand } from '@aws-sdk/lib-dynamodb';
import { startEmbeddedStore, type EmbeddedStore } from '../../tools/local-host/embedded-store.ts';

/** Two tables shaped like the metering writer's: generations (pk) and counters (pk + period). */
export const GENERATIONS = 'test-generations';
export const COUNTERS = 'test-counters';

export interface TransactionalStoreFixture {
  directory: string;
  store: EmbeddedStore;
  client: DynamoDBClient;
  documents: DynamoDBDocumentClient;
  generation(pk: string): Promise<Record<string, unknown> | undefined>;
  counter(pk: string, period?: string): Promise<Record<string, unknown> | undefined>;
  close(): Promise<void>;
}

export function localDynamoClient(endpoint: string): DynamoDBClient {
  return new DynamoDBClient({ endpoint, region: 'local', credentials: { accessKeyId: 'local', secretAccessKey: 'local' } });
}

/** An embedded store (behind its transactional front) in a fresh directory, with the two test tables. */
export async function openTransactionalStore(): Promise<TransactionalStoreFixture> {
  const directory = await mkdtemp(join(tmpdir(), 'gateway-transactional-front-'));
  const store = await startEmbeddedStore(join(directory, 'store'), { keys: 'test-keys', projects: 'test-projects' });
  const client = localDynamoClient(store.endpoint);
  const documents = DynamoDBDocumentClient.from(client);
  await client.send(
    new CreateTableCommand({
      TableName: GENERATIONS,
      BillingMode: 'PAY_PER_REQUEST',
      AttributeDefinitions: [{ AttributeName: 'pk', AttributeType: 'S' }],
      KeySchema: [{ AttributeName: 'pk', KeyType: 'HASH' }],
    }),
  );
  await client.send(
    new CreateTableCommand({
      TableName: COUNTERS,
      BillingMode: 'PAY_PER_REQUEST',
      AttributeDefinitions: [
        { AttributeName: 'pk', AttributeType: 'S' },
        { AttributeName: 'period', AttributeType: 'S' },
      ],
      KeySchema: [
        { AttributeName: 'pk', KeyType: 'HASH' },
        { AttributeName: 'period', KeyType: 'RANGE' },
      ],
    }),
  );
  return {
    directory,
    store,
    client,
    documents,
    generation: async (pk) => (await documents.send(new GetCommand({ TableName: GENERATIONS, Key: { pk }, ConsistentRead: true }))).Item,
    counter: async (pk, period = '2025-01') =>
      (await documents.send(new GetCommand({ TableName: COUNTERS, Key: { pk, period }, ConsistentRead: true }))).Item,
    close: async () => {
      client.destroy();
      await store.close();
      await rm(directory, { recursive: true, force: true });
    },
  };
}
