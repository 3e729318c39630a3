import { appendFileSync, readFileSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { crc32 } from 'node:zlib';
import {
  ConditionalCheckFailedException,
  CreateTableCommand,
  DeleteTableCommand,
  GetItemCommand,
  TransactionCanceledException,
  waitUntilTableNotExists,
} from '@aws-sdk/client-dynamodb';
import { BatchWriteCommand, DeleteCommand, GetCommand, PutCommand, QueryCommand, ScanCommand, TransactWriteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmbeddedStore } from '../../../tools/local-host/embedded-store.ts';
import { COUNTERS, GENERATIONS, localDynamoClient, openTransactionalStore, type TransactionalStoreFixture } from '../../support/transactional-store.ts';

let fixture: TransactionalStoreFixture;

beforeAll(async () => {
  fixture = await openTransactionalStore();
});
afterAll(async () => {
  await fixture.close();
});

/** A DynamoDB JSON-protocol request as the SDK sends it (dynalite wants a signature, not a valid one). */
function rawRequest(operation: string, payload: object): Promise<Response> {
  return fetch(fixture.store.endpoint, {
    method: 'POST',
    headers: {
      'content-type': 'application/x-amz-json-1.0',
      'x-amz-target': `DynamoDB_20120810.${operation}`,
      'x-amz-date': '20250101T000000Z',
      authorization: 'AWS4-HMAC-SHA256 Credential=local/20250101/local/dynamodb/aws4_request, SignedHeaders=host, Signature=x',
    },
    body: JSON.stringify(payload),
  });
}

describe('the transactional front on the wire', () => {
  it('answers a transaction with the headers the SDK and AWS send, CRC32 matching the body', async () => {
    const response = await rawRequest('TransactWriteItems', { TransactItems: [{ Put: { TableName: GENERATIONS, Item: { pk: { S: 'gen-raw' } } } }] });
    const body = Buffer.from(await response.arrayBuffer());

    expect(response.status).toBe(200);
    expect(body.toString()).toBe('{}');
    expect(response.headers.get('content-type')).toBe('application/x-amz-json-1.0');
    expect(response.headers.get('x-amzn-requestid')).toMatch(/^[A-Z0-9]{52}$/);
    expect(response.headers.get('x-amz-crc32')).toBe(String(crc32(body)));
  });

  it('answers a cancelled transaction with the TransactionCanceledException body of AWS', async () => {
    await rawRequest('PutItem', { TableName: GENERATIONS, Item: { pk: { S: 'gen-raw-taken' } } });

    const response = await rawRequest('TransactWriteItems', {
      TransactItems: [
        { Put: { TableName: GENERATIONS, Item: { pk: { S: 'gen-raw-free' } } } },
        { Put: { TableName: GENERATIONS, Item: { pk: { S: 'gen-raw-taken' } }, ConditionExpression: 'attribute_not_exists(pk)' } },
      ],
    });
    const body = Buffer.from(await response.arrayBuffer());

    expect(response.status).toBe(400);
    expect(JSON.parse(body.toString())).toEqual({
      __type: 'com.amazonaws.dynamodb.v20120810#TransactionCanceledException',
      message: 'Transaction cancelled, please refer cancellation reasons for specific reasons [None, ConditionalCheckFailed]',
      CancellationReasons: [{ Code: 'None' }, { Code: 'ConditionalCheckFailed' }],
    });
    expect(response.headers.get('x-amz-crc32')).toBe(String(crc32(body)));
  });

  it('answers a transaction body that is not JSON with a SerializationException', async () => {
    const response = await fetch(fixture.store.endpoint, {
      method: 'POST',
      headers: { 'content-type': 'application/x-amz-json-1.0', 'x-amz-target': 'DynamoDB_20120810.TransactWriteItems' },
      body: '{not json',
    });

    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({ __type: 'com.amazon.coral.service#SerializationException' });
  });

  it('relays ordinary reads and writes to the store', async () => {
    const { documents } = fixture;
    await documents.send(new PutCommand({ TableName: COUNTERS, Item: { pk: 'plain', period: '2025-01', total: 1 } }));
    await documents.send(
      new BatchWriteCommand({
        RequestItems: {
          [COUNTERS]: [{ PutRequest: { Item: { pk: 'plain', period: '2025-02', total: 2 } } }, { PutRequest: { Item: { pk: 'plain', period: '2025-03', total: 3 } } }],
        },
      }),
    );
    await documents.send(new UpdateCommand({ TableName: COUNTERS, Key: { pk: 'plain', period: '2025-01' }, UpdateExpression: 'ADD #t :n', ExpressionAttributeNames: { '#t': 'total' }, ExpressionAttributeValues: { ':n': 10 } }));
    await documents.send(new DeleteCommand({ TableName: COUNTERS, Key: { pk: 'plain', period: '2025-03' } }));

    const got = await documents.send(new GetCommand({ TableName: COUNTERS, Key: { pk: 'plain', period: '2025-01' } }));
    const queried = await documents.send(new QueryCommand({ TableName: COUNTERS, KeyConditionExpression: 'pk = :pk', ExpressionAttributeValues: { ':pk': 'plain' } }));
    const scanned = await documents.send(new ScanCommand({ TableName: COUNTERS, FilterExpression: 'pk = :pk', ExpressionAttributeValues: { ':pk': 'plain' } }));

    expect(got.Item).toEqual({ pk: 'plain', period: '2025-01', total: 11 });
    expect(queried.Items).toEqual([
      { pk: 'plain', period: '2025-01', total: 11 },
      { pk: 'plain', period: '2025-02', total: 2 },
    ]);
    expect(scanned.Count).toBe(2);
  });

  it('relays a failed condition of an ordinary write as ConditionalCheckFailedException', async () => {
    await fixture.documents.send(new PutCommand({ TableName: GENERATIONS, Item: { pk: 'gen-plain-taken' } }));

    const attempt = fixture.documents.send(new PutCommand({ TableName: GENERATIONS, Item: { pk: 'gen-plain-taken' }, ConditionExpression: 'attribute_not_exists(pk)' }));

    await expect(attempt).rejects.toBeInstanceOf(ConditionalCheckFailedException);
  });

  it('isolates concurrent transactions: 50 racing on 10 ids create 10 items and count 10', async () => {
    const attempts = Array.from({ length: 50 }, (_, index) =>
      fixture.documents.send(
        new TransactWriteCommand({
          TransactItems: [
            { Put: { TableName: GENERATIONS, Item: { pk: `gen-race-${index % 10}`, attempt: index }, ConditionExpression: 'attribute_not_exists(pk)' } },
            { Update: { TableName: COUNTERS, Key: { pk: 'race', period: '2025-01' }, UpdateExpression: 'ADD #t :one', ExpressionAttributeNames: { '#t': 'total' }, ExpressionAttributeValues: { ':one': 1 } } },
          ],
        }),
      ),
    );

    const outcomes = await Promise.allSettled(attempts);

    const rejections = outcomes.flatMap((outcome) => (outcome.status === 'rejected' ? [outcome.reason] : []));
    expect(outcomes.filter((outcome) => outcome.status === 'fulfilled')).toHaveLength(10);
    expect(rejections.every((reason) => reason instanceof TransactionCanceledException)).toBe(true);
    const raced = await fixture.documents.send(new ScanCommand({ TableName: GENERATIONS, FilterExpression: 'begins_with(pk, :race)', ExpressionAttributeValues: { ':race': 'gen-race-' } }));
    expect(raced.Count).toBe(10);
    expect(await fixture.counter('race')).toEqual({ pk: 'race', period: '2025-01', total: 10 });
  });

  it('uses the key schema of a table created again under the same name', async () => {
    const { client } = fixture;
    const recreate = async (keyName: string) => {
      // DeleteTable answers while the table is still DELETING (as DynamoDB does): wait until it is gone.
      const deleted = await client.send(new DeleteTableCommand({ TableName: 'test-recreated' })).then(() => true, () => false);
      if (deleted) await waitUntilTableNotExists({ client, minDelay: 1, maxDelay: 1, maxWaitTime: 10 }, { TableName: 'test-recreated' });
      const schema = { AttributeDefinitions: [{ AttributeName: keyName, AttributeType: 'S' as const }], KeySchema: [{ AttributeName: keyName, KeyType: 'HASH' as const }] };
      await client.send(new CreateTableCommand({ TableName: 'test-recreated', BillingMode: 'PAY_PER_REQUEST', ...schema }));
    };
    await recreate('first');
    await fixture.documents.send(new TransactWriteCommand({ TransactItems: [{ Put: { TableName: 'test-recreated', Item: { first: 'a' } } }] }));
    await recreate('second');

    await fixture.documents.send(new TransactWriteCommand({ TransactItems: [{ Put: { TableName: 'test-recreated', Item: { second: 'b' } } }] }));

    const got = await fixture.documents.send(new GetCommand({ TableName: 'test-recreated', Key: { second: 'b' } }));
    expect(got.Item).toEqual({ second: 'b' });
  });
});

describe('closing the embedded store', () => {
  it('closes the front and the store behind it, releasing the data directory for a next start', async () => {
    const first = await openTransactionalStore();
    const directory = join(first.directory, 'store');
    await first.documents.send(new PutCommand({ TableName: GENERATIONS, Item: { pk: 'gen-kept' } }));
    first.client.destroy();
    await first.store.close();

    await expect(fetch(first.store.endpoint)).rejects.toThrow();
    const reopened = await startEmbeddedStore(directory, { keys: 'test-keys', projects: 'test-projects' });
    const client = localDynamoClient(reopened.endpoint);
    try {
      const got = await client.send(new GetItemCommand({ TableName: GENERATIONS, Key: { pk: { S: 'gen-kept' } } }));
      expect(got.Item).toEqual({ pk: { S: 'gen-kept' } });
    } finally {
      client.destroy();
      await reopened.close();
      await rm(first.directory, { recursive: true, force: true });
    }
  });
});

describe('a transaction a crash cut off', () => {
  it('is undone when the store opens again: every item it touched is back as it was before', async () => {
    const first = await openTransactionalStore();
    const directory = join(first.directory, 'store');
    await first.documents.send(new PutCommand({ TableName: GENERATIONS, Item: { pk: 'gen-before', spent: 1 } }));
    // As the front logs a transaction before writing it (transaction-undo-log.ts), then half of its writes land.
    const beforeImages = [
      { tableName: GENERATIONS, key: { pk: { S: 'gen-before' } }, item: { pk: { S: 'gen-before' }, spent: { N: '1' } } },
      { tableName: GENERATIONS, key: { pk: { S: 'gen-new' } } },
    ];
    appendFileSync(`${directory}.transactions.jsonl`, `${JSON.stringify({ op: 'begin', id: 1, items: beforeImages })}\n`);
    await rawRequest('PutItem', { TableName: GENERATIONS, Item: { pk: { S: 'gen-before' }, spent: { N: '99' } } });
    await rawRequest('PutItem', { TableName: GENERATIONS, Item: { pk: { S: 'gen-new' } } });
    first.client.destroy();
    await first.store.close(); // no end: the process "died" in the middle

    const reopened = await startEmbeddedStore(directory, { keys: 'test-keys', projects: 'test-projects' });
    const client = localDynamoClient(reopened.endpoint);
    try {
      expect((await client.send(new GetItemCommand({ TableName: GENERATIONS, Key: { pk: { S: 'gen-before' } } }))).Item).toEqual({ pk: { S: 'gen-before' }, spent: { N: '1' } });
      expect((await client.send(new GetItemCommand({ TableName: GENERATIONS, Key: { pk: { S: 'gen-new' } } }))).Item).toBeUndefined();
      expect(readFileSync(`${directory}.transactions.jsonl`, 'utf8')).toBe('');
    } finally {
      client.destroy();
      await reopened.close();
      await rm(first.directory, { recursive: true, force: true });
    }
  });
});
