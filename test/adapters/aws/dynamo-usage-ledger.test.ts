import { DynamoDBClient, ProvisionedThroughputExceededException, TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, GetCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import type { AwsClientStub } from 'aws-sdk-client-mock';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { DynamoUsageLedger } from '../../../shared/adapters/aws/dynamo-usage-ledger.ts';
import type { UsageRecord } from '../../../shared/core/usage-record.ts';
import { sampleRecord } from '../../support/sample-usage-record.ts';
import { embeddedLedger, LEDGER_TABLES as tables, mockedLedger } from '../../support/usage-ledger-fixtures.ts';

function cancelled(...codes: string[]): TransactionCanceledException {
  return new TransactionCanceledException({
    message: `Transaction cancelled, please refer cancellation reasons for specific reasons [${codes.join(', ')}]`,
    $metadata: {},
    CancellationReasons: codes.map((Code) => ({ Code })),
  });
}

describe('DynamoUsageLedger: recording usage', () => {
  describe('commands sent to DynamoDB', () => {
    let dynamo: AwsClientStub<DynamoDBDocumentClient>;
    let ledger: DynamoUsageLedger;

    beforeAll(() => {
      ({ dynamo, ledger } = mockedLedger());
    });
    afterEach(() => dynamo.reset());
    afterAll(() => dynamo.restore());

    it('stores the record and adds its cost in one transaction, conditional on the record id being new', async () => {
      dynamo.on(TransactWriteCommand).resolves({});
      const record = sampleRecord({ projectId: 'acme', requestId: 'req-42', costNanos: 1_234_567, createdAt: '2025-03-01T10:00:00.000Z' });

      await expect(ledger.recordOnce(record)).resolves.toBe(true);

      const calls = dynamo.commandCalls(TransactWriteCommand);
      expect(calls).toHaveLength(1);
      expect(calls[0]?.args[0].input).toEqual({
        TransactItems: [
          {
            Put: {
              TableName: 'gen-table',
              // 2025-03-01T10:00:00Z is 1740823200 s; plus 30 days of 86,400 s.
              Item: { ...record, generationKey: 'acme#req-42', expiresAt: 1_740_823_200 + 30 * 86_400 },
              ConditionExpression: 'attribute_not_exists(recordId)',
            },
          },
          {
            Update: {
              TableName: 'projects-table',
              Key: { projectId: 'acme', itemKey: 'usage' },
              UpdateExpression: 'ADD spentNanos :cost, requestCount :count SET updatedAt = :now',
              ExpressionAttributeValues: { ':cost': 1_234_567n, ':count': 1, ':now': '2025-03-01T10:00:00.000Z' },
            },
          },
        ],
      });
    });

    it('sets the TTL from createdAt in whole seconds, whatever the retention', async () => {
      dynamo.on(TransactWriteCommand).resolves({});
      const shortLived = new DynamoUsageLedger(DynamoDBDocumentClient.from(new DynamoDBClient({ region: 'us-east-1' })), { ...tables, retentionDays: 7 });

      await shortLived.recordOnce(sampleRecord({ createdAt: '2025-03-01T10:00:00.999Z' }));

      const put = dynamo.commandCalls(TransactWriteCommand)[0]?.args[0].input.TransactItems?.[0]?.Put;
      expect(put?.Item?.expiresAt).toBe(1_740_823_200 + 7 * 86_400);
    });

    it('answers false when the transaction was cancelled because the record already exists', async () => {
      dynamo.on(TransactWriteCommand).rejects(cancelled('ConditionalCheckFailed', 'None'));

      await expect(ledger.recordOnce(sampleRecord())).resolves.toBe(false);
    });

    it('tries a transaction that conflicted with another write of its items again, and applies it', async () => {
      // Concurrent writers metering one project both write its usage item: DynamoDB cancels one of them.
      dynamo.on(TransactWriteCommand).rejectsOnce(cancelled('None', 'TransactionConflict')).resolves({});

      await expect(ledger.recordOnce(sampleRecord())).resolves.toBe(true);
      expect(dynamo.commandCalls(TransactWriteCommand)).toHaveLength(2);
    });

    it('throws when the transaction keeps conflicting, after five tries (the message comes back from the queue)', async () => {
      dynamo.on(TransactWriteCommand).rejects(cancelled('TransactionConflict', 'None'));

      await expect(ledger.recordOnce(sampleRecord())).rejects.toBeInstanceOf(TransactionCanceledException);
      expect(dynamo.commandCalls(TransactWriteCommand)).toHaveLength(5);
    });

    it('sets a record held before aside and tries the rest again when the same cancellation also names a conflict', async () => {
      dynamo.on(TransactWriteCommand).rejectsOnce(cancelled('ConditionalCheckFailed', 'None', 'TransactionConflict')).resolves({});

      const outcomes = await ledger.recordAll([sampleRecord({ recordId: 'rec-heldBefore0000000001' }), sampleRecord({ recordId: 'rec-newRecord00000000001' })]);

      expect(outcomes).toEqual(['already-applied', 'applied']);
      expect(dynamo.commandCalls(TransactWriteCommand)).toHaveLength(2);
    });

    it('throws at once when the transaction was cancelled for another reason', async () => {
      dynamo.on(TransactWriteCommand).rejects(cancelled('ValidationError', 'TransactionConflict'));

      await expect(ledger.recordOnce(sampleRecord())).rejects.toBeInstanceOf(TransactionCanceledException);
      expect(dynamo.commandCalls(TransactWriteCommand)).toHaveLength(1);
    });

    it('throws any other DynamoDB error', async () => {
      dynamo
        .on(TransactWriteCommand)
        .rejects(new ProvisionedThroughputExceededException({ message: 'Rate of requests exceeds the allowed throughput', $metadata: {} }));

      await expect(ledger.recordOnce(sampleRecord())).rejects.toThrow('Rate of requests exceeds the allowed throughput');
    });

    it('records who made a stored response in the same transaction, under a key no project id can start, unless another project owns the id', async () => {
      dynamo.on(TransactWriteCommand).resolves({});
      const record = sampleRecord({ projectId: 'acme', requestId: 'req-7', endpoint: 'responses', upstreamId: 'resp_abc', provider: 'openai', model: 'openai/gpt-5', createdAt: '2025-03-01T10:00:00.000Z' });

      await ledger.recordOnce(record);

      const items = dynamo.commandCalls(TransactWriteCommand)[0]?.args[0].input.TransactItems ?? [];
      expect(items).toHaveLength(3);
      // The record's put, its owner item beside it, then the project's spend.
      expect(items[1]).toEqual({
        Put: {
          TableName: 'gen-table',
          Item: {
            generationKey: '@response#resp_abc',
            recordId: 'owner',
            ownerRecordId: record.recordId,
            projectId: 'acme',
            provider: 'openai',
            model: 'openai/gpt-5',
            requestId: 'req-7',
            createdAt: '2025-03-01T10:00:00.000Z',
            expiresAt: 1_740_823_200 + 30 * 86_400,
          },
          ConditionExpression: 'attribute_not_exists(recordId) OR projectId = :projectId',
          ExpressionAttributeValues: { ':projectId': 'acme' },
        },
      });
    });

    it("applies a record whose response id another project owns without its owner item, and reports it", async () => {
      const taken: string[] = [];
      const reporting = new DynamoUsageLedger(DynamoDBDocumentClient.from(new DynamoDBClient({ region: 'us-east-1' })), tables, (record) => taken.push(record.recordId));
      dynamo.on(TransactWriteCommand).rejectsOnce(cancelled('None', 'ConditionalCheckFailed', 'None')).resolves({});
      const record = sampleRecord({ projectId: 'pb', endpoint: 'responses', upstreamId: 'resp_taken' });

      await expect(reporting.recordOnce(record)).resolves.toBe(true);

      const calls = dynamo.commandCalls(TransactWriteCommand);
      expect(calls).toHaveLength(2);
      expect(calls[1]?.args[0].input.TransactItems?.map((item) => Object.keys(item)[0])).toEqual(['Put', 'Update']);
      expect(calls[1]?.args[0].input.TransactItems?.[0]?.Put?.Item).toMatchObject({ recordId: record.recordId });
      expect(taken).toEqual([record.recordId]);
    });

    it("writes an alias of the answer's id in the same transaction, keyed by project, answer id and record id, naming the record", async () => {
      dynamo.on(TransactWriteCommand).resolves({});
      const record = sampleRecord({ projectId: 'acme', requestId: 'req-8', answerId: 'msg_gateway8', createdAt: '2025-03-01T10:00:00.000Z' });

      await ledger.recordOnce(record);

      const items = dynamo.commandCalls(TransactWriteCommand)[0]?.args[0].input.TransactItems ?? [];
      // The record's put (conditional on its id: a redelivery cancels the alias with it), the alias, the spend.
      expect(items.map((item) => Object.keys(item)[0])).toEqual(['Put', 'Put', 'Update']);
      expect(items[0]?.Put?.ConditionExpression).toBe('attribute_not_exists(recordId)');
      expect(items[1]).toEqual({
        Put: {
          TableName: 'gen-table',
          Item: { generationKey: '@answer#acme#msg_gateway8', recordId: record.recordId, requestId: 'req-8', createdAt: '2025-03-01T10:00:00.000Z', expiresAt: 1_740_823_200 + 30 * 86_400 },
        },
      });
    });

    it('writes no alias without an answer id, for one equal to the request id, or for one too long for a key', async () => {
      dynamo.on(TransactWriteCommand).resolves({});
      await ledger.recordOnce(sampleRecord());
      await ledger.recordOnce(sampleRecord({ requestId: 'chatcmpl-same', answerId: 'chatcmpl-same' }));
      await ledger.recordOnce(sampleRecord({ answerId: `chatcmpl-${'x'.repeat(300)}` }));

      for (const call of dynamo.commandCalls(TransactWriteCommand)) expect(call.args[0].input.TransactItems).toHaveLength(2);
    });

    it("keeps a record's alias when its response id's owner item is refused", async () => {
      dynamo.on(TransactWriteCommand).rejectsOnce(cancelled('None', 'None', 'ConditionalCheckFailed', 'None')).resolves({});
      const record = sampleRecord({ projectId: 'pb', endpoint: 'responses', upstreamId: 'resp_held', answerId: 'resp_held' });

      await expect(ledger.recordOnce(record)).resolves.toBe(true);

      const retried = dynamo.commandCalls(TransactWriteCommand)[1]?.args[0].input.TransactItems ?? [];
      expect(retried.map((item) => item.Put?.Item?.generationKey ?? 'usage')).toEqual([`pb#${record.requestId}`, '@answer#pb#resp_held', 'usage']);
    });

    it('records no owner for answers nothing stores upstream (chat completions) or without an upstream id', async () => {
      dynamo.on(TransactWriteCommand).resolves({});
      await ledger.recordOnce(sampleRecord({ endpoint: 'chat.completions', upstreamId: 'chatcmpl-1' }));
      await ledger.recordOnce(sampleRecord({ endpoint: 'responses' }));

      for (const call of dynamo.commandCalls(TransactWriteCommand)) expect(call.args[0].input.TransactItems).toHaveLength(2);
    });
  });

  describe('on the embedded store', () => {
    let embedded: Awaited<ReturnType<typeof embeddedLedger>>;
    let ledger: DynamoUsageLedger;
    let documents: DynamoDBDocumentClient;
    let names: Awaited<ReturnType<typeof embeddedLedger>>['names'];
    const usageOf = (projectId: string) => embedded.usageOf(projectId);

    beforeAll(async () => {
      embedded = await embeddedLedger();
      ({ ledger, documents, names } = embedded);
    });
    afterAll(() => embedded.close());

    it('applies a batch in one transaction: a record applied before is set aside and the rest applied, an id given twice once', async () => {
      const before = sampleRecord({ projectId: 'batch', costNanos: 7 });
      await ledger.recordAll([before]);
      const fresh = [sampleRecord({ projectId: 'batch', costNanos: 100 }), sampleRecord({ projectId: 'batch-other', costNanos: 20 })];
      const twice = sampleRecord({ projectId: 'batch', costNanos: 3_000 });

      await expect(ledger.recordAll([fresh[0] as UsageRecord, before, twice, fresh[1] as UsageRecord, twice])).resolves.toEqual([
        'applied',
        'already-applied',
        'applied',
        'applied',
        'already-applied',
      ]);

      expect(await usageOf('batch')).toMatchObject({ spentNanos: 3_107, requestCount: 3 });
      expect(await usageOf('batch-other')).toMatchObject({ spentNanos: 20, requestCount: 1 });
      await expect(ledger.recordAll([before, twice])).resolves.toEqual(['already-applied', 'already-applied']);
      expect(await usageOf('batch')).toMatchObject({ spentNanos: 3_107, requestCount: 3 });
    });

    it('splits a batch larger than a transaction takes (100 items) and settles prepaid reservations per project', async () => {
      const records = Array.from({ length: 130 }, (_, index) =>
        sampleRecord({ projectId: `split-${index % 3}`, costNanos: 10, prepaid: true, reservedNanos: 25, createdAt: `2025-03-01T10:${String(index % 60).padStart(2, '0')}:00.000Z` }),
      );

      const outcomes = await ledger.recordAll(records);

      expect(outcomes.every((outcome) => outcome === 'applied')).toBe(true);
      for (const project of [0, 1, 2]) {
        const count = records.filter((record) => record.projectId === `split-${project}`).length;
        // Each record's reservation (25) comes back and its cost (10) is taken.
        expect(await usageOf(`split-${project}`)).toMatchObject({ spentNanos: 10 * count, requestCount: count, availableNanos: 15 * count });
      }
    });

    it('counts answer aliases and owner items when it splits a batch into transactions of 100 items', async () => {
      const records = Array.from({ length: 70 }, (_, index) =>
        sampleRecord({ projectId: `aliased-${index % 2}`, endpoint: 'responses', upstreamId: `resp_split_${index}`, answerId: `resp_split_${index}`, costNanos: 10 }),
      );

      await expect(ledger.recordAll(records)).resolves.toEqual(records.map(() => 'applied'));

      for (const project of [0, 1]) expect(await usageOf(`aliased-${project}`)).toMatchObject({ spentNanos: 350, requestCount: 35 });
      await expect(ledger.findGeneration('aliased-1', 'resp_split_69')).resolves.toEqual(records[69]);
    });

    it('applies a record once: true the first time, false for the same record again', async () => {
      const record = sampleRecord({ projectId: 'once', costNanos: 5_000 });

      await expect(ledger.recordOnce(record)).resolves.toBe(true);
      await expect(ledger.recordOnce(record)).resolves.toBe(false);

      expect(await usageOf('once')).toMatchObject({ spentNanos: 5_000, requestCount: 1 });
    });

    it('adds up the spend and request count of distinct records, including two that share a request id', async () => {
      const records = [
        sampleRecord({ projectId: 'adds', costNanos: 1_000, requestId: 'req-shared', createdAt: '2025-03-01T10:00:00.000Z' }),
        sampleRecord({ projectId: 'adds', costNanos: 20_000, requestId: 'req-shared', createdAt: '2025-03-01T10:00:05.000Z' }),
        sampleRecord({ projectId: 'adds', costNanos: 300_000 }),
        sampleRecord({ projectId: 'adds', costNanos: 0 }),
      ];

      for (const record of records) await expect(ledger.recordOnce(record)).resolves.toBe(true);
      await expect(ledger.recordOnce(records[1] ?? sampleRecord())).resolves.toBe(false);

      expect(await usageOf('adds')).toEqual({
        projectId: 'adds',
        itemKey: 'usage',
        spentNanos: 321_000,
        requestCount: 4,
        updatedAt: records[3]?.createdAt,
      });
      await expect(ledger.findGeneration('adds', 'req-shared')).resolves.toEqual(records[1]);
    });

    it('stores the generation item under its key with the TTL attribute', async () => {
      const record = sampleRecord({ projectId: 'ttl', requestId: 'req-ttl', createdAt: '2025-03-01T10:00:00.000Z' });
      await ledger.recordOnce(record);

      const { Item } = await documents.send(
        new GetCommand({ TableName: names.generations, Key: { generationKey: 'ttl#req-ttl', recordId: record.recordId }, ConsistentRead: true }),
      );

      expect(Item).toEqual({ ...record, generationKey: 'ttl#req-ttl', expiresAt: 1_740_823_200 + 30 * 86_400 });
    });
  });
});
