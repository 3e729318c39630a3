import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DynamoDBClient, TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { mockClient, type AwsClientStub } from 'aws-sdk-client-mock';
import { DynamoUsageLedger } from '../../shared/adapters/aws/dynamo-usage-ledger.ts';
import { startEmbeddedStore } from '../../tools/local-host/embedded-store.ts';
import { embeddedStoreDocuments } from '../../shared/wiring/dynamo-documents.ts';
import { documentsOverSdk } from './sdk-documents.ts';

/** The tables of the mocked ledger. */
export const LEDGER_TABLES = { generations: 'gen-table', projects: 'projects-table', retentionDays: 30 };

/** A DynamoUsageLedger whose DynamoDB commands are mocked (aws-sdk-client-mock). */
export function mockedLedger(): { dynamo: AwsClientStub<DynamoDBDocumentClient>; ledger: DynamoUsageLedger } {
  const dynamo = mockClient(DynamoDBDocumentClient);
  return { dynamo, ledger: new DynamoUsageLedger(documentsOverSdk(DynamoDBDocumentClient.from(new DynamoDBClient({ region: 'us-east-1' }))), LEDGER_TABLES) };
}

/** DynamoDB's cancellation of a transaction, with one reason code per item. */
export function cancelled(...codes: string[]): TransactionCanceledException {
  return new TransactionCanceledException({
    message: `Transaction cancelled, please refer cancellation reasons for specific reasons [${codes.join(', ')}]`,
    $metadata: {},
    CancellationReasons: codes.map((Code) => ({ Code })),
  });
}

/** A DynamoUsageLedger on the embedded store, in a throw-away directory; `usageOf` reads a project's usage item. */
export async function embeddedLedger() {
  const names = { keys: 'ledger-keys', projects: 'ledger-projects', generations: 'ledger-generations' };
  const directory = await mkdtemp(join(tmpdir(), 'dynamo-usage-ledger-'));
  const store = await startEmbeddedStore(directory, names);
  const documents = embeddedStoreDocuments(store.endpoint);
  return {
    names,
    documents,
    ledger: new DynamoUsageLedger(documents, { generations: names.generations, projects: names.projects, retentionDays: 30 }),
    async usageOf(projectId: string): Promise<Record<string, unknown> | undefined> {
      const { Item } = await documents.get({ TableName: names.projects, Key: { projectId, itemKey: 'usage' }, ConsistentRead: true });
      return Item;
    },
    async close() {
      await store.close();
      await rm(directory, { recursive: true, force: true });
    },
  };
}
