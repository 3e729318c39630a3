import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConditionalCheckFailedException, DynamoDBClient, TransactionConflictException } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { mockClient, type AwsClientStub } from 'aws-sdk-client-mock';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { DynamoProjectBalance } from '../../../shared/adapters/aws/dynamo-project-balance.ts';
import { DynamoUsageLedger } from '../../../shared/adapters/aws/dynamo-usage-ledger.ts';
import { startEmbeddedStore, type EmbeddedStore } from '../../../tools/local-host/embedded-store.ts';
import { sampleRecord } from '../../support/sample-usage-record.ts';
import { embeddedStoreDocuments } from '../../../shared/wiring/dynamo-documents.ts';
import { documentsOverSdk } from '../../support/sdk-documents.ts';
import type { DynamoDocuments } from '../../../shared/adapters/aws/dynamo-documents.ts';

describe('DynamoProjectBalance', () => {
  describe('commands sent to DynamoDB', () => {
    let dynamo: AwsClientStub<DynamoDBDocumentClient>;
    let balances: DynamoProjectBalance;

    beforeAll(() => {
      dynamo = mockClient(DynamoDBDocumentClient);
      balances = new DynamoProjectBalance(documentsOverSdk(DynamoDBDocumentClient.from(new DynamoDBClient({ region: 'us-east-1' }))), 'projects-table');
    });
    afterEach(() => dynamo.reset());
    afterAll(() => dynamo.restore());

    it('reserves with one conditional ADD on the usage item that needs the whole amount available', async () => {
      dynamo.on(UpdateCommand).resolves({});

      await expect(balances.reserve('acme', 1_500)).resolves.toBe(true);

      expect(dynamo.commandCalls(UpdateCommand)[0]?.args[0].input).toEqual({
        TableName: 'projects-table',
        Key: { projectId: 'acme', itemKey: 'usage' },
        UpdateExpression: 'ADD availableNanos :taken, reservedNanos :held',
        ConditionExpression: 'availableNanos >= :needed',
        ExpressionAttributeValues: { ':taken': -1_500, ':held': 1_500, ':needed': 1_500 },
      });
    });

    it('answers false when the balance does not cover the amount (the condition fails)', async () => {
      dynamo.on(UpdateCommand).rejects(new ConditionalCheckFailedException({ message: 'The conditional request failed', $metadata: {} }));

      await expect(balances.reserve('acme', 1)).resolves.toBe(false);
    });

    it('tries a reservation again while a writer transaction holds the usage item (TransactionConflictException)', async () => {
      const conflict = new TransactionConflictException({ message: 'Transaction is ongoing for the item', $metadata: {} });
      dynamo.on(UpdateCommand).rejectsOnce(conflict).rejectsOnce(conflict).resolves({});

      await expect(balances.reserve('acme', 1_500)).resolves.toBe(true);
      expect(dynamo.commandCalls(UpdateCommand)).toHaveLength(3);
    });

    it('gives up after five conflicting tries and passes the conflict on', async () => {
      dynamo.on(UpdateCommand).rejects(new TransactionConflictException({ message: 'Transaction is ongoing for the item', $metadata: {} }));

      await expect(balances.release('acme', 10)).rejects.toBeInstanceOf(TransactionConflictException);
      expect(dynamo.commandCalls(UpdateCommand)).toHaveLength(5);
    });

    it('passes any other DynamoDB error on', async () => {
      dynamo.on(UpdateCommand).rejects(new Error('Service unavailable'));

      await expect(balances.reserve('acme', 1)).rejects.toThrow('Service unavailable');
    });

    it('sends nothing to release an empty reservation', async () => {
      await balances.release('acme', 0);

      expect(dynamo.commandCalls(UpdateCommand)).toHaveLength(0);
    });
  });

  describe('on the embedded store', () => {
    const names = { keys: 'balance-keys', projects: 'balance-projects', generations: 'balance-generations' };
    let directory: string;
    let store: EmbeddedStore;
    let documents: DynamoDocuments;
    let balances: DynamoProjectBalance;

    beforeAll(async () => {
      directory = await mkdtemp(join(tmpdir(), 'dynamo-project-balance-'));
      store = await startEmbeddedStore(directory, names);
      documents = embeddedStoreDocuments(store.endpoint);
      balances = new DynamoProjectBalance(documents, names.projects);
    });
    afterAll(async () => {
      await store.close();
      await rm(directory, { recursive: true, force: true });
    });

    it('reports zero totals and no balance for a project that never had usage', async () => {
      await expect(balances.loadUsageTotals('untouched')).resolves.toEqual({ spentNanos: 0n, requestCount: 0 });
    });

    it('sets a balance, adds credit, and removes the balance again with undefined', async () => {
      await balances.setBalance('credited', 10_000n);
      await balances.addCredit('credited', 2_500n);
      await expect(balances.loadUsageTotals('credited')).resolves.toEqual({ spentNanos: 0n, requestCount: 0, availableNanos: 12_500n });

      await balances.setBalance('credited', 4_000n);
      await expect(balances.loadUsageTotals('credited')).resolves.toMatchObject({ availableNanos: 4_000n });

      await balances.setBalance('credited', undefined);
      await expect(balances.loadUsageTotals('credited')).resolves.toEqual({ spentNanos: 0n, requestCount: 0 });
    });

    it('keeps the spend the writer recorded when the balance changes', async () => {
      const ledger = new DynamoUsageLedger(documents, { generations: names.generations, projects: names.projects, retentionDays: 30 });
      await ledger.recordOnce(sampleRecord({ projectId: 'spending', costNanos: 700 }));

      await balances.setBalance('spending', 5_000n);
      await balances.setBalance('spending', undefined);

      const { Item } = await documents.get({ TableName: names.projects, Key: { projectId: 'spending', itemKey: 'usage' }, ConsistentRead: true });
      expect(Item).toMatchObject({ spentNanos: 700, requestCount: 1 });
      expect(Item?.availableNanos).toBeUndefined();
      await expect(balances.loadUsageTotals('spending')).resolves.toEqual({ spentNanos: 700n, requestCount: 1 });
    });

    it('reserves only while what is available covers the amount, down to exactly zero', async () => {
      await balances.setBalance('reserving', 3_000n);

      await expect(balances.reserve('reserving', 2_000)).resolves.toBe(true);
      await expect(balances.reserve('reserving', 1_001)).resolves.toBe(false);
      await expect(balances.reserve('reserving', 1_000)).resolves.toBe(true);
      await expect(balances.reserve('reserving', 1)).resolves.toBe(false);

      await expect(balances.loadUsageTotals('reserving')).resolves.toMatchObject({ availableNanos: 0n });
    });

    it('reports what the reservations in flight hold beside what is available, and nothing held once they are given back', async () => {
      await balances.setBalance('holding', 5_000n);
      await balances.reserve('holding', 2_000);
      await expect(balances.loadUsageTotals('holding')).resolves.toEqual({ spentNanos: 0n, requestCount: 0, availableNanos: 3_000n, reservedNanos: 2_000n });

      await balances.release('holding', 2_000);
      await expect(balances.loadUsageTotals('holding')).resolves.toMatchObject({ availableNanos: 5_000n, reservedNanos: 0n });
    });

    it('refuses a reservation on a project that has no balance at all', async () => {
      await expect(balances.reserve('postpaid', 1)).resolves.toBe(false);
      await expect(balances.loadUsageTotals('postpaid')).resolves.toEqual({ spentNanos: 0n, requestCount: 0 });
    });

    it('never overspends: 30 concurrent reservations of 1,000 on 10,000 succeed exactly 10 times', async () => {
      await balances.setBalance('concurrent', 10_000n);

      const results = await Promise.all(Array.from({ length: 30 }, () => balances.reserve('concurrent', 1_000)));

      expect(results.filter(Boolean)).toHaveLength(10);
      await expect(balances.loadUsageTotals('concurrent')).resolves.toMatchObject({ availableNanos: 0n });
    });

    it('sets a balance net of the reservations in flight: their settlements then give back only what they took', async () => {
      const ledger = new DynamoUsageLedger(documents, { generations: names.generations, projects: names.projects, retentionDays: 30 });
      await balances.setBalance('topped-up', 1_000_000n);
      await balances.reserve('topped-up', 300_000);
      await balances.reserve('topped-up', 200_000);

      // The owner sets the balance while both requests run; one then costs 50,000, the other never reaches an upstream.
      await balances.setBalance('topped-up', 100_000n);
      await ledger.recordOnce(sampleRecord({ projectId: 'topped-up', costNanos: 50_000, prepaid: true, reservedNanos: 300_000 }));
      await balances.release('topped-up', 200_000);

      await expect(balances.loadUsageTotals('topped-up')).resolves.toMatchObject({ availableNanos: 50_000n });
      const { Item } = await documents.get({ TableName: names.projects, Key: { projectId: 'topped-up', itemKey: 'usage' }, ConsistentRead: true });
      expect(Item?.reservedNanos).toBe(0);
    });

    it('gives a released reservation back, so it can be reserved again', async () => {
      await balances.setBalance('releasing', 1_000n);
      await balances.reserve('releasing', 1_000);

      await balances.release('releasing', 1_000);

      await expect(balances.loadUsageTotals('releasing')).resolves.toMatchObject({ availableNanos: 1_000n });
      await expect(balances.reserve('releasing', 1_000)).resolves.toBe(true);
    });

    it('settles a prepaid record to its real cost through the writer', async () => {
      const ledger = new DynamoUsageLedger(documents, { generations: names.generations, projects: names.projects, retentionDays: 30 });
      await balances.setBalance('settling', 10_000n);
      await balances.reserve('settling', 4_000);

      await ledger.recordOnce(sampleRecord({ projectId: 'settling', prepaid: true, reservedNanos: 4_000, costNanos: 1_250 }));

      await expect(balances.loadUsageTotals('settling')).resolves.toEqual({ spentNanos: 1_250n, requestCount: 1, availableNanos: 8_750n, reservedNanos: 0n });
    });

    it('keeps a balance beyond 2^53 nano-USD (about 9 million USD) exact through credit and reservations', async () => {
      await balances.setBalance('large-balance', 999_999_999_999_999_999n);
      await balances.addCredit('large-balance', 1n);
      await expect(balances.reserve('large-balance', 3)).resolves.toBe(true);

      await expect(balances.loadUsageTotals('large-balance')).resolves.toEqual({ spentNanos: 0n, requestCount: 0, availableNanos: 999_999_999_999_999_997n, reservedNanos: 3n });
    });

    it('reads a spend the writer took beyond 2^53 nano-USD exactly, the records of one batch added up exactly', async () => {
      const ledger = new DynamoUsageLedger(documents, { generations: names.generations, projects: names.projects, retentionDays: 30 });
      await balances.setBalance('large-spend', 20_000_000_000_000_000n);

      await ledger.recordAll([
        sampleRecord({ projectId: 'large-spend', costNanos: 5_000_000_000_000_001, prepaid: true, reservedNanos: 5_000_000_000_000_001 }),
        sampleRecord({ projectId: 'large-spend', costNanos: 5_000_000_000_000_000, prepaid: true, reservedNanos: 5_000_000_000_000_002 }),
      ]);
      await ledger.recordOnce(sampleRecord({ projectId: 'large-spend', costNanos: 1 }));

      await expect(balances.loadUsageTotals('large-spend')).resolves.toEqual({
        spentNanos: 10_000_000_000_000_002n,
        requestCount: 3,
        availableNanos: 20_000_000_000_000_002n,
        reservedNanos: -10_000_000_000_000_003n,
      });
    });
  });
});
