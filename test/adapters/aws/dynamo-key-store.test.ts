import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConditionalCheckFailedException, DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, GetCommand, PutCommand, QueryCommand, ScanCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { mockClient, type AwsClientStub } from 'aws-sdk-client-mock';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { DynamoKeyStore } from '../../../shared/adapters/aws/dynamo-key-store.ts';
import type { KeyRecord } from '../../../shared/core/key-record.ts';
import { startEmbeddedStore, type EmbeddedStore } from '../../../tools/local-host/embedded-store.ts';

const hashA = 'a'.repeat(64);
const hashB = 'b'.repeat(64);
const hashC = 'c'.repeat(64);

function keyRecord(overrides: Partial<KeyRecord> = {}): KeyRecord {
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

function conditionFailed(): ConditionalCheckFailedException {
  return new ConditionalCheckFailedException({ message: 'The conditional request failed', $metadata: {} });
}

describe('DynamoKeyStore', () => {
  describe('commands sent to DynamoDB', () => {
    let dynamo: AwsClientStub<DynamoDBDocumentClient>;
    let store: DynamoKeyStore;

    beforeAll(() => {
      dynamo = mockClient(DynamoDBDocumentClient);
      store = new DynamoKeyStore(DynamoDBDocumentClient.from(new DynamoDBClient({ region: 'us-east-1' })), 'keys-table');
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

    it('revokes a key by finding it through the by-project index and updating it conditionally', async () => {
      const revokedAt = '2025-03-04T05:06:07.000Z';
      dynamo.on(QueryCommand).resolves({ Items: [keyRecord()] });
      dynamo.on(UpdateCommand).resolves({ Attributes: { ...keyRecord(), revokedAt } });

      await expect(store.revoke('alpha', 'key_aaaaaaaaaaaaaaaa', revokedAt)).resolves.toEqual({ ...keyRecord(), revokedAt });

      expect(dynamo.commandCalls(QueryCommand)[0]?.args[0].input).toEqual({
        TableName: 'keys-table',
        IndexName: 'by-project',
        KeyConditionExpression: 'projectId = :projectId AND keyId = :keyId',
        ExpressionAttributeValues: { ':projectId': 'alpha', ':keyId': 'key_aaaaaaaaaaaaaaaa' },
      });
      const updates = dynamo.commandCalls(UpdateCommand);
      expect(updates).toHaveLength(1);
      expect(updates[0]?.args[0].input).toEqual({
        TableName: 'keys-table',
        Key: { keyHash: hashA },
        UpdateExpression: 'SET revokedAt = :revokedAt',
        ConditionExpression: 'attribute_exists(keyHash) AND attribute_not_exists(revokedAt)',
        ExpressionAttributeValues: { ':revokedAt': revokedAt },
        ReturnValues: 'ALL_NEW',
      });
    });

    it('answers undefined, and writes nothing, when the project has no such key', async () => {
      dynamo.on(QueryCommand).resolves({ Items: [] });

      await expect(store.revoke('alpha', 'key_missing', '2025-03-04T05:06:07.000Z')).resolves.toBeUndefined();
      expect(dynamo.commandCalls(UpdateCommand)).toHaveLength(0);
    });

    it('returns an already revoked key unchanged, keeping its first revocation time', async () => {
      const revoked = keyRecord({ revokedAt: '2025-01-01T00:00:00.000Z' });
      dynamo.on(QueryCommand).resolves({ Items: [revoked] });

      await expect(store.revoke('alpha', revoked.keyId, '2025-09-09T09:09:09.000Z')).resolves.toEqual(revoked);
      expect(dynamo.commandCalls(UpdateCommand)).toHaveLength(0);
    });

    it('reads the key back when another revoke won the race (ConditionalCheckFailedException)', async () => {
      const concurrent = keyRecord({ revokedAt: '2025-03-04T05:06:06.000Z' });
      dynamo.on(QueryCommand).resolves({ Items: [keyRecord()] });
      dynamo.on(UpdateCommand).rejects(conditionFailed());
      dynamo.on(GetCommand).resolves({ Item: concurrent });

      await expect(store.revoke('alpha', concurrent.keyId, '2025-03-04T05:06:07.000Z')).resolves.toEqual(concurrent);

      const gets = dynamo.commandCalls(GetCommand);
      expect(gets).toHaveLength(1);
      expect(gets[0]?.args[0].input).toEqual({ TableName: 'keys-table', Key: { keyHash: hashA } });
    });

    it('updates a key only while it is not revoked (attribute_not_exists(revokedAt))', async () => {
      dynamo.on(QueryCommand).resolves({ Items: [keyRecord()] });
      dynamo.on(UpdateCommand).resolves({ Attributes: { ...keyRecord(), disabled: true } });

      await expect(store.update('alpha', 'key_aaaaaaaaaaaaaaaa', { disabled: true })).resolves.toEqual({ ...keyRecord(), disabled: true });

      expect(dynamo.commandCalls(UpdateCommand)[0]?.args[0].input).toEqual({
        TableName: 'keys-table',
        Key: { keyHash: hashA },
        UpdateExpression: 'SET disabled = :disabled',
        ConditionExpression: 'attribute_exists(keyHash) AND attribute_not_exists(revokedAt)',
        ExpressionAttributeValues: { ':disabled': true },
        ReturnValues: 'ALL_NEW',
      });
    });

    it('returns a revoked key unchanged, and writes nothing, when asked to update it', async () => {
      const revoked = keyRecord({ revokedAt: '2025-01-01T00:00:00.000Z', disabled: true });
      dynamo.on(QueryCommand).resolves({ Items: [revoked] });

      await expect(store.update('alpha', revoked.keyId, { disabled: false, rpm: 60, name: 'back' })).resolves.toEqual(revoked);
      expect(dynamo.commandCalls(UpdateCommand)).toHaveLength(0);
    });

    it('reads the key back, unchanged, when it was revoked between the read and the update', async () => {
      const revoked = keyRecord({ revokedAt: '2025-03-04T05:06:06.000Z' });
      dynamo.on(QueryCommand).resolves({ Items: [keyRecord()] });
      dynamo.on(UpdateCommand).rejects(conditionFailed());
      dynamo.on(GetCommand).resolves({ Item: revoked });

      await expect(store.update('alpha', revoked.keyId, { disabled: false })).resolves.toEqual(revoked);
    });

    it('propagates any other failure of the revoking update', async () => {
      dynamo.on(QueryCommand).resolves({ Items: [keyRecord()] });
      dynamo.on(UpdateCommand).rejects(new Error('throttled'));

      await expect(store.revoke('alpha', 'key_aaaaaaaaaaaaaaaa', '2025-03-04T05:06:07.000Z')).rejects.toThrow('throttled');
      expect(dynamo.commandCalls(GetCommand)).toHaveLength(0);
    });
  });

  describe('against the embedded store', () => {
    let dataDir: string;
    let embedded: EmbeddedStore | undefined;
    let dynamo: DynamoDBClient | undefined;
    let documents: DynamoDBDocumentClient;
    let store: DynamoKeyStore;

    beforeAll(async () => {
      dataDir = await mkdtemp(join(tmpdir(), 'dynamo-key-store-'));
      embedded = await startEmbeddedStore(dataDir, { keys: 'test-keys', projects: 'test-projects' });
      dynamo = new DynamoDBClient({
        endpoint: embedded.endpoint,
        region: 'local',
        credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
      });
      documents = DynamoDBDocumentClient.from(dynamo, { marshallOptions: { removeUndefinedValues: true } });
      store = new DynamoKeyStore(documents, 'test-keys');
    });
    afterAll(async () => {
      dynamo?.destroy();
      await embedded?.close();
      await rm(dataDir, { recursive: true, force: true });
    });

    it('finds a stored key by its hash, and nothing for an unknown hash', async () => {
      const record = keyRecord({ keyHash: '1'.repeat(64), keyId: 'key_find', projectId: 'finder' });
      await store.put(record);

      await expect(store.findByHash('1'.repeat(64))).resolves.toEqual(record);
      await expect(store.findByHash('2'.repeat(64))).resolves.toBeUndefined();
    });

    it('refuses a second key with the same hash and keeps the first', async () => {
      const record = keyRecord({ keyHash: '3'.repeat(64), keyId: 'key_first', projectId: 'dupes' });
      await store.put(record);

      await expect(store.put({ ...record, keyId: 'key_second', name: 'impostor' })).rejects.toBeInstanceOf(
        ConditionalCheckFailedException,
      );
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

    it('revokes a key once: a second revoke keeps the first revocation time', async () => {
      const record = keyRecord({ keyHash: '7'.repeat(64), keyId: 'key_rev', projectId: 'revoker' });
      await store.put(record);

      const revoked = await store.revoke('revoker', 'key_rev', '2025-05-05T05:05:05.000Z');
      expect(revoked).toEqual({ ...record, revokedAt: '2025-05-05T05:05:05.000Z' });
      await expect(store.findByHash(record.keyHash)).resolves.toEqual(revoked);

      await expect(store.revoke('revoker', 'key_rev', '2025-06-06T06:06:06.000Z')).resolves.toEqual(revoked);
      await expect(store.listForProject('revoker')).resolves.toEqual([revoked]);
    });

    it('stamps a key\'s last use forward only, and ignores a key that does not exist', async () => {
      const record = keyRecord({ keyHash: 'd'.repeat(64), keyId: 'key_used', projectId: 'user' });
      await store.put(record);

      await store.recordLastUse('user', 'key_used', '2025-05-05T05:05:05.000Z');
      await store.recordLastUse('user', 'key_used', '2025-05-04T00:00:00.000Z');
      await store.recordLastUse('user', 'key_unknown', '2025-05-06T00:00:00.000Z');

      await expect(store.findByHash(record.keyHash)).resolves.toEqual({ ...record, lastUsedAt: '2025-05-05T05:05:05.000Z' });
      await store.recordLastUse('user', 'key_used', '2025-05-07T00:00:00.000Z');
      expect((await store.findByHash(record.keyHash))?.lastUsedAt).toBe('2025-05-07T00:00:00.000Z');
      // Renaming or revoking keeps the stamp.
      await store.revoke('user', 'key_used', '2025-05-08T00:00:00.000Z');
      expect((await store.findByHash(record.keyHash))?.lastUsedAt).toBe('2025-05-07T00:00:00.000Z');
    });

    it('never changes a revoked key: enabling, renaming or a new limit leave it as it was revoked', async () => {
      const record = keyRecord({ keyHash: 'e'.repeat(64), keyId: 'key_gone', projectId: 'updater', disabled: true });
      await store.put(record);
      const revoked = await store.revoke('updater', 'key_gone', '2025-05-05T05:05:05.000Z');

      await expect(store.update('updater', 'key_gone', { disabled: false, name: 'back', rpm: 60 })).resolves.toEqual(revoked);
      await expect(store.findByHash(record.keyHash)).resolves.toEqual(revoked);
    });

    it("does not revoke another project's key, nor an unknown one", async () => {
      const record = keyRecord({ keyHash: '8'.repeat(64), keyId: 'key_guarded', projectId: 'owner' });
      await store.put(record);

      await expect(store.revoke('intruder', 'key_guarded', '2025-05-05T05:05:05.000Z')).resolves.toBeUndefined();
      await expect(store.revoke('owner', 'key_unknown', '2025-05-05T05:05:05.000Z')).resolves.toBeUndefined();
      await expect(store.findByHash(record.keyHash)).resolves.toEqual(record);
    });

    it('stores exactly the record attributes, nothing more', async () => {
      const record = keyRecord({ keyHash: '9'.repeat(64), keyId: 'key_raw', projectId: 'raw' });
      await store.put(record);

      const { Items } = await documents.send(new ScanCommand({ TableName: 'test-keys' }));
      expect(Items?.find((item) => item.keyHash === record.keyHash)).toEqual(record);
    });
  });
});
