import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { GetCommand, PutCommand, QueryCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { AwsClientStub } from 'aws-sdk-client-mock';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { DynamoDocuments } from '../../../shared/adapters/aws/dynamo-documents.ts';
import type { DynamoKeyStore } from '../../../shared/adapters/aws/dynamo-key-store.ts';
import { conditionFailed, embeddedKeyStore, hashA, hashB, hashC, keyRecord, mockedKeyStore } from '../../support/key-store-fixtures.ts';

describe('DynamoKeyStore: finding, storing and listing keys', () => {
  describe('commands sent to DynamoDB', () => {
    let dynamo: AwsClientStub<DynamoDBDocumentClient>;
    let store: DynamoKeyStore;

    beforeAll(() => {
      ({ dynamo, store } = mockedKeyStore());
    });
    afterEach(() => dynamo.reset());
    afterAll(() => dynamo.restore());

    it('finds a key by its hash with a GetCommand on the key table', async () => {
      dynamo.on(GetCommand).resolves({ Item: keyRecord() });

      await expect(store.findByHash(hashA)).resolves.toEqual(keyRecord());

      const calls = dynamo.commandCalls(GetCommand);
      expect(calls).toHaveLength(1);
      expect(calls[0]?.args[0].input).toEqual({ TableName: 'keys-table', Key: { keyHash: hashA } });
    });

    it('answers undefined when no item has the hash', async () => {
      dynamo.on(GetCommand).resolves({});

      await expect(store.findByHash(hashB)).resolves.toBeUndefined();
    });

    it('rejects a stored item that is not a valid key record', async () => {
      dynamo.on(GetCommand).resolves({ Item: { keyHash: 'not-a-hash', keyId: 'key_x' } });

      await expect(store.findByHash(hashA)).rejects.toThrow();
    });

    it('puts a key only when no item has its hash yet (attribute_not_exists(keyHash))', async () => {
      dynamo.on(PutCommand).resolves({});

      await store.put(keyRecord());

      const calls = dynamo.commandCalls(PutCommand);
      expect(calls).toHaveLength(1);
      expect(calls[0]?.args[0].input).toEqual({
        TableName: 'keys-table',
        Item: keyRecord(),
        ConditionExpression: 'attribute_not_exists(keyHash)',
      });
    });

    it('lets a put of an existing hash fail with ConditionalCheckFailedException', async () => {
      dynamo.on(PutCommand).rejects(conditionFailed());

      await expect(store.put(keyRecord())).rejects.toBeInstanceOf(ConditionalCheckFailedException);
    });

    it("lists a project's keys through the by-project index, following LastEvaluatedKey", async () => {
      const first = keyRecord({ keyHash: hashA, keyId: 'key_1' });
      const second = keyRecord({ keyHash: hashB, keyId: 'key_2' });
      const third = keyRecord({ keyHash: hashC, keyId: 'key_3', revokedAt: '2025-02-01T00:00:00.000Z' });
      const pageEnd = { keyHash: hashB, projectId: 'alpha', keyId: 'key_2' };
      dynamo
        .on(QueryCommand)
        .resolvesOnce({ Items: [first, second], LastEvaluatedKey: pageEnd })
        .resolvesOnce({ Items: [third] });

      await expect(store.listForProject('alpha')).resolves.toEqual([first, second, third]);

      const calls = dynamo.commandCalls(QueryCommand);
      expect(calls).toHaveLength(2);
      const expected = {
        TableName: 'keys-table',
        IndexName: 'by-project',
        KeyConditionExpression: 'projectId = :projectId',
        ExpressionAttributeValues: { ':projectId': 'alpha' },
      };
      expect(calls[0]?.args[0].input).toEqual(expected);
      expect(calls[0]?.args[0].input.ExclusiveStartKey).toBeUndefined();
      expect(calls[1]?.args[0].input).toEqual({ ...expected, ExclusiveStartKey: pageEnd });
    });

    it('lists no keys when the index has none for the project', async () => {
      dynamo.on(QueryCommand).resolves({});

      await expect(store.listForProject('empty')).resolves.toEqual([]);
      expect(dynamo.commandCalls(QueryCommand)).toHaveLength(1);
    });
  });

  describe('against the embedded store', () => {
    let embedded: Awaited<ReturnType<typeof embeddedKeyStore>>;
    let store: DynamoKeyStore;
    let documents: DynamoDocuments;

    beforeAll(async () => {
      embedded = await embeddedKeyStore();
      ({ store, documents } = embedded);
    });
    afterAll(() => embedded.close());

    it('finds a stored key by its hash, and nothing for an unknown hash', async () => {
      const record = keyRecord({ keyHash: '1'.repeat(64), keyId: 'key_find', projectId: 'finder' });
      await store.put(record);

      await expect(store.findByHash('1'.repeat(64))).resolves.toEqual(record);
      await expect(store.findByHash('2'.repeat(64))).resolves.toBeUndefined();
    });

    it('refuses a second key with the same hash and keeps the first', async () => {
      const record = keyRecord({ keyHash: '3'.repeat(64), keyId: 'key_first', projectId: 'dupes' });
      await store.put(record);

      await expect(store.put({ ...record, keyId: 'key_second', name: 'impostor' })).rejects.toMatchObject({ name: 'ConditionalCheckFailedException' });
      await expect(store.findByHash(record.keyHash)).resolves.toEqual(record);
    });

    it("lists exactly one project's keys", async () => {
      const mine = [
        keyRecord({ keyHash: '4'.repeat(64), keyId: 'key_m1', projectId: 'lister', name: 'one' }),
        keyRecord({ keyHash: '5'.repeat(64), keyId: 'key_m2', projectId: 'lister', name: 'two' }),
      ];
      const theirs = keyRecord({ keyHash: '6'.repeat(64), keyId: 'key_t1', projectId: 'other-lister' });
      for (const record of [...mine, theirs]) await store.put(record);

      const listed = await store.listForProject('lister');
      expect([...listed].sort((a, b) => a.keyId.localeCompare(b.keyId))).toEqual(mine);
      await expect(store.listForProject('nobody')).resolves.toEqual([]);
    });
    it('stores exactly the record attributes, nothing more', async () => {
      const record = keyRecord({ keyHash: '9'.repeat(64), keyId: 'key_raw', projectId: 'raw' });
      await store.put(record);

      const { Items } = await documents.scan({ TableName: 'test-keys' });
      expect(Items?.find((item) => item.keyHash === record.keyHash)).toEqual(record);
    });
  });
});
