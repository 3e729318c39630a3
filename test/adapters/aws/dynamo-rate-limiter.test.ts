import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConditionalCheckFailedException, DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { mockClient, type AwsClientStub } from 'aws-sdk-client-mock';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { DynamoRateLimiter } from '../../../shared/adapters/aws/dynamo-rate-limiter.ts';
import type { LimitCharge } from '../../../shared/core/ports.ts';
import { startEmbeddedStore, type EmbeddedStore } from '../../../tools/local-host/embedded-store.ts';
import { embeddedStoreDocuments } from '../../../shared/wiring/dynamo-documents.ts';
import { documentsOverSdk } from '../../support/sdk-documents.ts';
import type { DynamoDocuments } from '../../../shared/adapters/aws/dynamo-documents.ts';

// 2025-03-01T10:01:00Z: the window's end, 1740823260 s after the epoch.
const windowEndsAt = 1_740_823_260_000;

function charge(counterKey: string, limit: number, amount = 1): LimitCharge {
  return { counterKey, limit, amount, windowEndsAt };
}

describe('DynamoRateLimiter', () => {
  describe('commands sent to DynamoDB', () => {
    let dynamo: AwsClientStub<DynamoDBDocumentClient>;
    let limiter: DynamoRateLimiter;

    beforeAll(() => {
      dynamo = mockClient(DynamoDBDocumentClient);
      limiter = new DynamoRateLimiter(documentsOverSdk(DynamoDBDocumentClient.from(new DynamoDBClient({ region: 'us-east-1' }))), 'counters-table');
    });
    afterEach(() => dynamo.reset());
    afterAll(() => dynamo.restore());

    it('takes a charge with one conditional ADD that keeps the count within the limit and sets the TTL', async () => {
      dynamo.on(UpdateCommand).resolves({ Attributes: { count: 3 } });

      await expect(limiter.acquire([charge('rpm#key#k1#1', 10, 2)])).resolves.toEqual({ allowed: true, counts: [3] });

      const calls = dynamo.commandCalls(UpdateCommand);
      expect(calls).toHaveLength(1);
      expect(calls[0]?.args[0].input).toEqual({
        TableName: 'counters-table',
        Key: { counterKey: 'rpm#key#k1#1' },
        UpdateExpression: 'ADD #count :amount SET expiresAt = :expiresAt',
        ConditionExpression: 'attribute_not_exists(#count) OR #count <= :ceiling',
        ExpressionAttributeNames: { '#count': 'count' },
        // The window ends at 1740823260 s; counters live 120 s longer.
        ExpressionAttributeValues: { ':amount': 2, ':ceiling': 8, ':expiresAt': 1_740_823_260 + 120 },
        ReturnValues: 'UPDATED_NEW',
      });
    });

    it('adjusts a counter with an unconditional ADD and the same TTL', async () => {
      dynamo.on(UpdateCommand).resolves({});

      await limiter.adjust('tpm#project#acme#1', -250, windowEndsAt + 500);

      expect(dynamo.commandCalls(UpdateCommand)[0]?.args[0].input).toEqual({
        TableName: 'counters-table',
        Key: { counterKey: 'tpm#project#acme#1' },
        UpdateExpression: 'ADD #count :amount SET expiresAt = :expiresAt',
        ExpressionAttributeNames: { '#count': 'count' },
        // Rounded up to the next whole second.
        ExpressionAttributeValues: { ':amount': -250, ':expiresAt': 1_740_823_261 + 120 },
      });
    });

    it('answers a failed condition as a refusal and gives back the charges already taken', async () => {
      dynamo
        .on(UpdateCommand, { Key: { counterKey: 'first' } })
        .resolves({ Attributes: { count: 1 } })
        .on(UpdateCommand, { Key: { counterKey: 'second' } })
        .rejects(new ConditionalCheckFailedException({ message: 'The conditional request failed', $metadata: {} }));

      await expect(limiter.acquire([charge('first', 5, 1), charge('second', 5, 1)])).resolves.toEqual({ allowed: false, refusedIndex: 1 });

      const inputs = dynamo.commandCalls(UpdateCommand).map((call) => call.args[0].input);
      expect(inputs).toHaveLength(3);
      expect(inputs[2]).toMatchObject({ Key: { counterKey: 'first' }, ExpressionAttributeValues: { ':amount': -1 } });
      expect(inputs[2]?.ConditionExpression).toBeUndefined();
    });

    it('passes any other DynamoDB error on', async () => {
      dynamo.on(UpdateCommand).rejects(new Error('Throughput exceeded'));

      await expect(limiter.acquire([charge('any', 5)])).rejects.toThrow('Throughput exceeded');
    });
  });

  describe('on the embedded store', () => {
    const names = { keys: 'limiter-keys', projects: 'limiter-projects', counters: 'limiter-counters' };
    let directory: string;
    let store: EmbeddedStore;
    let documents: DynamoDocuments;
    let limiter: DynamoRateLimiter;

    beforeAll(async () => {
      directory = await mkdtemp(join(tmpdir(), 'dynamo-rate-limiter-'));
      store = await startEmbeddedStore(directory, names);
      documents = embeddedStoreDocuments(store.endpoint);
      limiter = new DynamoRateLimiter(documents, names.counters);
    });
    afterAll(async () => {
      await store.close();
      await rm(directory, { recursive: true, force: true });
    });

    async function countOf(counterKey: string): Promise<number | undefined> {
      const { Item } = await documents.get({ TableName: names.counters, Key: { counterKey }, ConsistentRead: true });
      return Item?.count as number | undefined;
    }

    it('admits exactly the limit out of 50 concurrent callers on one counter', async () => {
      const decisions = await Promise.all(Array.from({ length: 50 }, () => limiter.acquire([charge('concurrent', 10)])));

      const admitted = decisions.filter((decision) => decision.allowed);
      expect(admitted).toHaveLength(10);
      expect(decisions.filter((decision) => !decision.allowed)).toEqual(Array.from({ length: 40 }, () => ({ allowed: false, refusedIndex: 0 })));
      // Each admitted caller saw a distinct new count: 1 to 10.
      const counts = admitted.flatMap((decision) => (decision.allowed ? decision.counts : []));
      expect(counts.sort((a, b) => a - b)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
      expect(await countOf('concurrent')).toBe(10);
    });

    it("returns each charge's new count in the window", async () => {
      await expect(limiter.acquire([charge('counts-a', 10, 3), charge('counts-b', 100, 40)])).resolves.toEqual({ allowed: true, counts: [3, 40] });
      await expect(limiter.acquire([charge('counts-a', 10, 3), charge('counts-b', 100, 40)])).resolves.toEqual({ allowed: true, counts: [6, 80] });
    });

    it('admits a charge that reaches the limit exactly and refuses the next one', async () => {
      await expect(limiter.acquire([charge('boundary', 5, 5)])).resolves.toEqual({ allowed: true, counts: [5] });
      await expect(limiter.acquire([charge('boundary', 5, 1)])).resolves.toEqual({ allowed: false, refusedIndex: 0 });
      expect(await countOf('boundary')).toBe(5);
    });

    it('gives the first charge back when the second is refused, leaving its count unchanged', async () => {
      await limiter.acquire([charge('multi-first', 10, 4)]);
      await limiter.acquire([charge('multi-second', 2, 2)]);

      const decision = await limiter.acquire([charge('multi-first', 10, 1), charge('multi-second', 2, 1)]);

      expect(decision).toEqual({ allowed: false, refusedIndex: 1 });
      expect(await countOf('multi-first')).toBe(4);
      expect(await countOf('multi-second')).toBe(2);
    });

    it('refuses an amount larger than the limit without touching the store', async () => {
      const decision = await limiter.acquire([charge('too-large', 100, 101)]);

      expect(decision).toEqual({ allowed: false, refusedIndex: 0 });
      expect(await countOf('too-large')).toBeUndefined();
    });

    it('adjusts a counter up and down, past its limit if need be', async () => {
      await limiter.acquire([charge('adjusted', 1_000, 500)]);

      await limiter.adjust('adjusted', 700, windowEndsAt);
      expect(await countOf('adjusted')).toBe(1_200);
      await limiter.adjust('adjusted', -1_150, windowEndsAt);
      expect(await countOf('adjusted')).toBe(50);

      await expect(limiter.acquire([charge('adjusted', 1_000, 950)])).resolves.toEqual({ allowed: true, counts: [1_000] });
    });

    it('keeps separate counters apart', async () => {
      await limiter.acquire([charge('apart-a', 1)]);

      await expect(limiter.acquire([charge('apart-b', 1)])).resolves.toEqual({ allowed: true, counts: [1] });
      await expect(limiter.acquire([charge('apart-a', 1)])).resolves.toEqual({ allowed: false, refusedIndex: 0 });
    });
  });
});
