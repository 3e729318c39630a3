import { QueryCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { AwsClientStub } from 'aws-sdk-client-mock';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { DynamoUsageLedger } from '../../../shared/adapters/aws/dynamo-usage-ledger.ts';
import type { UsageRecord } from '../../../shared/core/usage-record.ts';
import { sampleRecord } from '../../support/sample-usage-record.ts';
import { embeddedLedger, mockedLedger } from '../../support/usage-ledger-fixtures.ts';

describe('DynamoUsageLedger: looking generations and stored responses up', () => {
  describe('commands sent to DynamoDB', () => {
    let dynamo: AwsClientStub<DynamoDBDocumentClient>;
    let ledger: DynamoUsageLedger;

    beforeAll(() => {
      ({ dynamo, ledger } = mockedLedger());
    });
    afterEach(() => dynamo.reset());
    afterAll(() => dynamo.restore());

    it('looks a generation up by <projectId>#<requestId> with a consistent read', async () => {
      const record = sampleRecord({ projectId: 'acme', requestId: 'req-lookup' });
      dynamo.on(QueryCommand).resolves({ Items: [{ ...record, generationKey: 'acme#req-lookup', expiresAt: 1 }] });

      await expect(ledger.findGeneration('acme', 'req-lookup')).resolves.toEqual(record);

      const calls = dynamo.commandCalls(QueryCommand);
      expect(calls).toHaveLength(1);
      expect(calls[0]?.args[0].input).toEqual({
        TableName: 'gen-table',
        KeyConditionExpression: 'generationKey = :key',
        ExpressionAttributeValues: { ':key': 'acme#req-lookup' },
        ConsistentRead: true,
      });
    });

    it('returns the latest record by createdAt when the request id was reused', async () => {
      const shared = { projectId: 'acme', requestId: 'req-reused' };
      const early = sampleRecord({ ...shared, createdAt: '2025-03-01T10:00:00.000Z' });
      const latest = sampleRecord({ ...shared, createdAt: '2025-03-03T08:00:00.000Z' });
      const middle = sampleRecord({ ...shared, createdAt: '2025-03-02T23:59:59.000Z' });
      dynamo.on(QueryCommand).resolves({ Items: [early, latest, middle] });

      await expect(ledger.findGeneration('acme', 'req-reused')).resolves.toEqual(latest);
    });

    it('reads every page of a reused request id, so the latest record on a later page is the one found', async () => {
      const shared = { projectId: 'acme', requestId: 'req-paged' };
      const early = sampleRecord({ ...shared, createdAt: '2025-03-01T10:00:00.000Z' });
      const latest = sampleRecord({ ...shared, createdAt: '2025-03-03T08:00:00.000Z' });
      const pageEnd = { generationKey: 'acme#req-paged', recordId: early.recordId };
      dynamo.on(QueryCommand).resolvesOnce({ Items: [early], LastEvaluatedKey: pageEnd }).resolvesOnce({ Items: [latest] });

      await expect(ledger.findGeneration('acme', 'req-paged')).resolves.toEqual(latest);
      expect(dynamo.commandCalls(QueryCommand)[1]?.args[0].input.ExclusiveStartKey).toEqual(pageEnd);
    });

    it('answers undefined when no generation has the request id', async () => {
      dynamo.on(QueryCommand).resolves({ Items: [] });

      await expect(ledger.findGeneration('acme', 'req-missing')).resolves.toBeUndefined();
    });

    it("finds a generation by its answer's id through the project's latest alias of it, then that record", async () => {
      const record = sampleRecord({ projectId: 'acme', requestId: 'req-answered', answerId: 'chatcmpl-abc' });
      const alias = (recordId: string, createdAt: string) => ({ generationKey: '@answer#acme#chatcmpl-abc', recordId, requestId: 'req-answered', createdAt });
      dynamo
        .on(QueryCommand, { ExpressionAttributeValues: { ':key': 'acme#chatcmpl-abc' } })
        .resolves({ Items: [] })
        .on(QueryCommand, { ExpressionAttributeValues: { ':key': '@answer#acme#chatcmpl-abc' } })
        .resolves({ Items: [alias(record.recordId, '2025-03-02T00:00:00.000Z'), alias('rec-0000000000000older', '2025-03-01T00:00:00.000Z')] })
        .on(QueryCommand, { ExpressionAttributeValues: { ':key': 'acme#req-answered', ':recordId': record.recordId } })
        .resolves({ Items: [record] });

      await expect(ledger.findGeneration('acme', 'chatcmpl-abc')).resolves.toEqual(record);

      expect(dynamo.commandCalls(QueryCommand).map((call) => call.args[0].input)).toEqual([
        { TableName: 'gen-table', KeyConditionExpression: 'generationKey = :key', ExpressionAttributeValues: { ':key': 'acme#chatcmpl-abc' }, ConsistentRead: true },
        { TableName: 'gen-table', KeyConditionExpression: 'generationKey = :key', ExpressionAttributeValues: { ':key': '@answer#acme#chatcmpl-abc' }, ConsistentRead: true },
        {
          TableName: 'gen-table',
          KeyConditionExpression: 'generationKey = :key AND recordId = :recordId',
          ExpressionAttributeValues: { ':key': 'acme#req-answered', ':recordId': record.recordId },
          ConsistentRead: true,
        },
      ]);
    });
  });

  describe('on the embedded store', () => {
    let embedded: Awaited<ReturnType<typeof embeddedLedger>>;
    let ledger: DynamoUsageLedger;
    const usageOf = (projectId: string) => embedded.usageOf(projectId);

    beforeAll(async () => {
      embedded = await embeddedLedger();
      ({ ledger } = embedded);
    });
    afterAll(() => embedded.close());

    it('round-trips a record through findGeneration unchanged, and not for another project', async () => {
      const record = sampleRecord({
        projectId: 'roundtrip',
        requestId: 'req-roundtrip',
        upstreamId: 'chatcmpl-abc',
        status: 'failed',
        httpStatus: 502,
        errorCode: 'upstream_error',
        estimated: true,
        attribution: { environment: 'staging', referer: 'https://app.example', title: 'Demo', sessionId: 's-1', agentId: 'a-1', userAgent: 'ua/1' },
      });
      await ledger.recordOnce(record);

      await expect(ledger.findGeneration('roundtrip', 'req-roundtrip')).resolves.toEqual(record);
      await expect(ledger.findGeneration('other-project', 'req-roundtrip')).resolves.toBeUndefined();
      await expect(ledger.findGeneration('roundtrip', 'req-never-sent')).resolves.toBeUndefined();
    });

    it("finds a record by its answer's id once it is applied, applied once however often it is sent, and only for its project", async () => {
      const record = sampleRecord({ projectId: 'answered', requestId: 'req-answered', upstreamId: 'chatcmpl-answered', answerId: 'chatcmpl-answered', costNanos: 10 });
      await expect(ledger.findGeneration('answered', 'chatcmpl-answered')).resolves.toBeUndefined();

      await expect(ledger.recordAll([record, record])).resolves.toEqual(['applied', 'already-applied']);
      await expect(ledger.recordOnce(record)).resolves.toBe(false);

      await expect(ledger.findGeneration('answered', 'chatcmpl-answered')).resolves.toEqual(record);
      await expect(ledger.findGeneration('answered', 'req-answered')).resolves.toEqual(record);
      await expect(ledger.findGeneration('other-project', 'chatcmpl-answered')).resolves.toBeUndefined();
      expect(await usageOf('answered')).toMatchObject({ requestCount: 1, spentNanos: 10 });
    });

    it("finds the latest of a project's records that answered with one id, and a record written before aliases by its request id", async () => {
      const first = sampleRecord({ projectId: 'repeated', answerId: 'msg_same', createdAt: '2025-03-01T10:00:00.000Z' });
      const latest = sampleRecord({ projectId: 'repeated', answerId: 'msg_same', createdAt: '2025-03-01T10:00:05.000Z' });
      const elsewhere = sampleRecord({ projectId: 'elsewhere', answerId: 'msg_same', createdAt: '2025-03-01T10:00:09.000Z' });
      const beforeAliases = sampleRecord({ projectId: 'repeated' });
      await ledger.recordAll([latest, first, elsewhere, beforeAliases]);

      await expect(ledger.findGeneration('repeated', 'msg_same')).resolves.toEqual(latest);
      await expect(ledger.findGeneration('elsewhere', 'msg_same')).resolves.toEqual(elsewhere);
      await expect(ledger.findGeneration('repeated', beforeAliases.requestId)).resolves.toEqual(beforeAliases);
    });

    it('finds the project and provider of a stored response once its record is applied, exactly once however often it is sent', async () => {
      const record = sampleRecord({ projectId: 'stored', requestId: 'req-stored', endpoint: 'responses', upstreamId: 'resp_stored_1', provider: 'openrouter', model: 'openrouter/openai/gpt-5' });
      await expect(ledger.findStoredResponse('resp_stored_1')).resolves.toBeUndefined();

      await expect(ledger.recordOnce(record)).resolves.toBe(true);
      await expect(ledger.recordOnce(record)).resolves.toBe(false);

      await expect(ledger.findStoredResponse('resp_stored_1')).resolves.toEqual({ projectId: 'stored', provider: 'openrouter', model: 'openrouter/openai/gpt-5', requestId: 'req-stored' });
      await expect(ledger.findStoredResponse('resp_never_made')).resolves.toBeUndefined();
      expect(await usageOf('stored')).toMatchObject({ requestCount: 1 });
    });

    describe('a response id another project answers with later', () => {
      const taken: UsageRecord[] = [];
      let reporting: DynamoUsageLedger;
      const response = (projectId: string, upstreamId: string) =>
        sampleRecord({ projectId, endpoint: 'responses', upstreamId, provider: `${projectId}-provider`, model: `${projectId}-provider/gpt-5`, costNanos: 10 });
      const ownerOf = async (responseId: string) => (await reporting.findStoredResponse(responseId))?.projectId;

      beforeAll(() => {
        reporting = new DynamoUsageLedger(embedded.documents, { generations: embedded.names.generations, projects: embedded.names.projects, retentionDays: 30 }, (record) => taken.push(record));
      });

      it('stays with the project that recorded it first; the other record is metered once, and reported', async () => {
        const first = response('pa', 'resp_X');
        const intruder = response('pb', 'resp_X');
        await expect(reporting.recordAll([first])).resolves.toEqual(['applied']);

        await expect(reporting.recordAll([intruder])).resolves.toEqual(['applied']);
        await expect(reporting.recordAll([intruder])).resolves.toEqual(['already-applied']);

        await expect(reporting.findStoredResponse('resp_X')).resolves.toEqual({ projectId: 'pa', provider: 'pa-provider', model: 'pa-provider/gpt-5', requestId: first.requestId });
        await expect(reporting.findGeneration('pb', intruder.requestId)).resolves.toEqual(intruder);
        expect(await usageOf('pb')).toMatchObject({ requestCount: 1, spentNanos: 10 });
        expect(taken.map((record) => record.recordId)).toEqual([intruder.recordId]);
      });

      it('stays with its project when that project records it again', async () => {
        const again = response('pa', 'resp_X');
        await expect(reporting.recordAll([again])).resolves.toEqual(['applied']);
        await expect(reporting.findStoredResponse('resp_X')).resolves.toMatchObject({ projectId: 'pa', requestId: again.requestId });
      });

      it('goes to the first record of a batch, and is kept from another project in the batch however they are ordered', async () => {
        taken.length = 0;
        const intruders = [response('pb', 'resp_Y'), response('pb', 'resp_X')];
        const batch = [response('pa', 'resp_Y'), intruders[0] as UsageRecord, intruders[1] as UsageRecord, response('pa', 'resp_X'), response('pc', 'resp_Z')];

        await expect(reporting.recordAll(batch)).resolves.toEqual(['applied', 'applied', 'applied', 'applied', 'applied']);

        expect([await ownerOf('resp_Y'), await ownerOf('resp_X'), await ownerOf('resp_Z')]).toEqual(['pa', 'pa', 'pc']);
        expect(taken.map((record) => record.recordId).sort()).toEqual(intruders.map((record) => record.recordId).sort());
        expect(await usageOf('pb')).toMatchObject({ requestCount: 3, spentNanos: 30 });
      });

      it('stays with the owner an item written before owner puts were conditional names', async () => {
        const legacy = response('pa', 'resp_L');
        await embedded.documents.put({
          TableName: embedded.names.generations,
          Item: { generationKey: '@response#resp_L', recordId: legacy.recordId, projectId: 'pa', provider: 'pa-provider', model: 'pa-provider/gpt-5', requestId: legacy.requestId, createdAt: legacy.createdAt },
        });

        await reporting.recordAll([{ ...response('pb', 'resp_L'), createdAt: '2025-03-02T10:00:00.000Z' }]);

        await expect(ownerOf('resp_L')).resolves.toBe('pa');
      });
    });
  });
});
