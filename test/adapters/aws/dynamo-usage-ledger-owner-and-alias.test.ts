import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
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
      const reporting = new DynamoUsageLedger(documentsOverSdk(DynamoDBDocumentClient.from(new DynamoDBClient({ region: 'us-east-1' }))), tables, (record) => taken.push(record.recordId));
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
});
