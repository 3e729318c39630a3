import { GetCommand, QueryCommand, UpdateCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { AwsClientStub } from 'aws-sdk-client-mock';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { DynamoKeyStore } from '../../../shared/adapters/aws/dynamo-key-store.ts';
import { conditionFailed, embeddedKeyStore, hashA, keyRecord, mockedKeyStore } from '../../support/key-store-fixtures.ts';

describe('DynamoKeyStore: revoking, updating and stamping keys', () => {
  describe('commands sent to DynamoDB', () => {
    let dynamo: AwsClientStub<DynamoDBDocumentClient>;
    let store: DynamoKeyStore;

    beforeAll(() => {
      ({ dynamo, store } = mockedKeyStore());
    });
    afterEach(() => dynamo.reset());
    afterAll(() => dynamo.restore());

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
    let embedded: Awaited<ReturnType<typeof embeddedKeyStore>>;
    let store: DynamoKeyStore;

    beforeAll(async () => {
      embedded = await embeddedKeyStore();
      ({ store } = embedded);
    });
    afterAll(() => embedded.close());

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
  });
});
