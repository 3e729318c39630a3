import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cancellationReasons, queryAll, type DynamoDocuments } from '../../../shared/adapters/aws/dynamo-documents.ts';
import { DynamoJsonDocuments } from '../../../shared/adapters/aws/dynamo-json-documents.ts';
import { AwsJsonService } from '../../../shared/transport/aws-json-service.ts';
import { createNodeHttpFetch } from '../../../shared/transport/node-http-fetch.ts';
import { embeddedStoreDocuments } from '../../../shared/wiring/dynamo-documents.ts';
import { startEmbeddedStore, type EmbeddedStore } from '../../../tools/local-host/embedded-store.ts';
import { AwsServiceError as FakeRefusal, startAwsJsonService } from '../../support/aws-json-service.ts';

/** DynamoDB's document operations as the gateway makes them: signed JSON calls, on the embedded store. */
describe('DynamoJsonDocuments against the embedded store', () => {
  let dataDir: string;
  let store: EmbeddedStore;
  let documents: DynamoDocuments;
  const projects = 'json-projects';
  const counters = 'json-counters';

  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'dynamo-json-documents-'));
    store = await startEmbeddedStore(dataDir, { keys: 'json-keys', projects, counters });
    documents = embeddedStoreDocuments(store.endpoint);
  });
  afterAll(async () => {
    await store.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  it('puts and gets an item with its values as they were: strings, numbers, booleans, null, lists, maps, bytes, and integers past 2^53 as BigInt', async () => {
    const item = {
      projectId: 'kinds',
      itemKey: 'all',
      name: 'Acme',
      count: 42,
      ratio: 0.25,
      active: true,
      nothing: null,
      tags: ['a', 'b'],
      nested: { depth: { value: 7 } },
      bytes: new Uint8Array([0, 1, 254, 255]),
      spentNanos: 9_007_199_254_740_993n,
    };

    await documents.put({ TableName: projects, Item: { ...item, dropped: undefined } });
    const { Item } = await documents.get({ TableName: projects, Key: { projectId: 'kinds', itemKey: 'all' }, ConsistentRead: true });

    expect({ ...Item, bytes: [...(Item?.bytes as Uint8Array)] }).toEqual({ ...item, bytes: [0, 1, 254, 255] });
    expect(Item).not.toHaveProperty('dropped');
  });

  it('answers no Item for a key that holds none', async () => {
    await expect(documents.get({ TableName: projects, Key: { projectId: 'absent', itemKey: 'none' } })).resolves.toEqual({});
  });

  it('updates with expression values and returns the new attributes when asked', async () => {
    const key = { counterKey: 'updated' };
    await documents.update({ TableName: counters, Key: key, UpdateExpression: 'ADD #count :one', ExpressionAttributeNames: { '#count': 'count' }, ExpressionAttributeValues: { ':one': 1 } });

    const { Attributes } = await documents.update({
      TableName: counters,
      Key: key,
      UpdateExpression: 'ADD #count :two',
      ExpressionAttributeNames: { '#count': 'count' },
      ExpressionAttributeValues: { ':two': 2 },
      ReturnValues: 'UPDATED_NEW',
    });

    expect(Attributes).toEqual({ count: 3 });
  });

  it('refuses a write whose condition fails with an error named ConditionalCheckFailedException', async () => {
    const item = { projectId: 'conditional', itemKey: 'once' };
    await documents.put({ TableName: projects, Item: item, ConditionExpression: 'attribute_not_exists(projectId)' });

    await expect(documents.put({ TableName: projects, Item: item, ConditionExpression: 'attribute_not_exists(projectId)' })).rejects.toMatchObject({
      name: 'ConditionalCheckFailedException',
      status: 400,
      retryable: false,
    });
  });

  it('deletes an item and returns what it held', async () => {
    await documents.put({ TableName: projects, Item: { projectId: 'deleted', itemKey: 'one', value: 'old' } });

    await expect(documents.delete({ TableName: projects, Key: { projectId: 'deleted', itemKey: 'one' }, ReturnValues: 'ALL_OLD' })).resolves.toEqual({
      Attributes: { projectId: 'deleted', itemKey: 'one', value: 'old' },
    });
    await expect(documents.get({ TableName: projects, Key: { projectId: 'deleted', itemKey: 'one' } })).resolves.toEqual({});
  });

  it('queries page by page: a page ends with LastEvaluatedKey, and queryAll follows it to the end', async () => {
    const items = Array.from({ length: 5 }, (_, index) => ({ projectId: 'paged', itemKey: `item#${index}` }));
    await documents.batchWrite({ RequestItems: { [projects]: items.map((item) => ({ PutRequest: { Item: item } })) } });
    const query = { TableName: projects, KeyConditionExpression: 'projectId = :project', ExpressionAttributeValues: { ':project': 'paged' } };

    const first = await documents.query({ ...query, Limit: 2 });
    expect(first.Items).toEqual(items.slice(0, 2));
    expect(first.LastEvaluatedKey).toEqual({ projectId: 'paged', itemKey: 'item#1' });
    await expect(queryAll(documents, { ...query, Limit: 2 })).resolves.toEqual(items);
  });

  it('scans a table, and deletes through a batch write', async () => {
    await documents.batchWrite({ RequestItems: { [counters]: [{ PutRequest: { Item: { counterKey: 'scanned' } } }] } });
    expect((await documents.scan({ TableName: counters })).Items).toContainEqual({ counterKey: 'scanned' });

    await expect(documents.batchWrite({ RequestItems: { [counters]: [{ DeleteRequest: { Key: { counterKey: 'scanned' } } }] } })).resolves.toEqual({});
    expect((await documents.scan({ TableName: counters })).Items).not.toContainEqual({ counterKey: 'scanned' });
  });

  it('writes a transaction whole, or refuses it whole with one cancellation reason per item', async () => {
    const usage = { projectId: 'transacted', itemKey: 'usage' };
    await documents.transactWrite({
      TransactItems: [
        { Put: { TableName: projects, Item: { projectId: 'transacted', itemKey: 'record#1' }, ConditionExpression: 'attribute_not_exists(itemKey)' } },
        { Update: { TableName: projects, Key: usage, UpdateExpression: 'ADD spentNanos :cost', ExpressionAttributeValues: { ':cost': 5 } } },
      ],
    });

    const refusal = documents.transactWrite({
      TransactItems: [
        { Put: { TableName: projects, Item: { projectId: 'transacted', itemKey: 'record#1' }, ConditionExpression: 'attribute_not_exists(itemKey)' } },
        { Update: { TableName: projects, Key: usage, UpdateExpression: 'ADD spentNanos :cost', ExpressionAttributeValues: { ':cost': 5 } } },
      ],
    });

    const error = await refusal.then(() => undefined, (reason: unknown) => reason);
    expect(error).toMatchObject({ name: 'TransactionCanceledException' });
    expect(cancellationReasons(error).map((reason) => reason.Code)).toEqual(['ConditionalCheckFailed', 'None']);
    expect((await documents.get({ TableName: projects, Key: usage, ConsistentRead: true })).Item).toEqual({ ...usage, spentNanos: 5 });
  });
});

describe('DynamoJsonDocuments when DynamoDB refuses for a while', () => {
  it('tries a throttled call again (ProvisionedThroughputExceededException), after a longer back-off, up to three times', async () => {
    let calls = 0;
    const dynamo = await startAwsJsonService({
      targetPrefix: 'DynamoDB_20120810',
      contentType: 'application/x-amz-json-1.0',
      operations: {
        GetItem: () => {
          calls += 1;
          if (calls < 3) throw new FakeRefusal('com.amazonaws.dynamodb.v20120810#ProvisionedThroughputExceededException', 'slow down');
          return { Item: { keyHash: { S: 'found' } } };
        },
      },
    });
    const waits: number[] = [];
    const documents = new DynamoJsonDocuments(
      new AwsJsonService({
        signingName: 'dynamodb',
        targetPrefix: 'DynamoDB_20120810',
        jsonVersion: '1.0',
        region: 'us-east-1',
        endpoint: dynamo.endpoint,
        credentials: async () => ({ accessKeyId: 'AKIDTEST', secretAccessKey: 'secret' }),
        fetch: createNodeHttpFetch({ allowPrivateAddresses: true }),
        timing: { sleep: async (ms) => void waits.push(ms) },
      }),
    );

    await expect(documents.get({ TableName: 'keys', Key: { keyHash: 'found' } })).resolves.toEqual({ Item: { keyHash: 'found' } });
    expect(calls).toBe(3);
    expect(waits).toHaveLength(2);
    // Throttling backs off from 500 ms (jittered), not from 100 ms.
    expect(waits[1]).toBeLessThanOrEqual(1_000);

    calls = -10;
    await expect(documents.get({ TableName: 'keys', Key: { keyHash: 'found' } })).rejects.toMatchObject({ name: 'ProvisionedThroughputExceededException', throttled: true });
    expect(calls).toBe(-7);
    await dynamo.close();
  });
});
