import { DynamoDBClient, ProvisionedThroughputExceededException, TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import type { AwsClientStub } from 'aws-sdk-client-mock';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { DynamoUsageLedger } from '../../../shared/adapters/aws/dynamo-usage-ledger.ts';
import { sampleRecord } from '../../support/sample-usage-record.ts';
import { cancelled, LEDGER_TABLES as tables, mockedLedger } from '../../support/usage-ledger-fixtures.ts';
import { documentsOverSdk } from '../../support/sdk-documents.ts';

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
      const shortLived = new DynamoUsageLedger(documentsOverSdk(DynamoDBDocumentClient.from(new DynamoDBClient({ region: 'us-east-1' }))), { ...tables, retentionDays: 7 });

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
  });
});
