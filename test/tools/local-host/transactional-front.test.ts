import { TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { PutCommand, TransactWriteCommand, type TransactWriteCommandInput } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { COUNTERS, GENERATIONS, openTransactionalStore, type TransactionalStoreFixture } from '../../support/transactional-store.ts';

type TransactItems = NonNullable<TransactWriteCommandInput['TransactItems']>;
type TransactItem = TransactItems[number];

let fixture: TransactionalStoreFixture;

beforeAll(async () => {
  fixture = await openTransactionalStore();
});
afterAll(async () => {
  await fixture.close();
});

function transact(items: TransactItems): Promise<unknown> {
  return fixture.documents.send(new TransactWriteCommand({ TransactItems: items }));
}

async function cancellationOf(attempt: Promise<unknown>): Promise<TransactionCanceledException> {
  const error = await attempt.then(
    () => undefined,
    (failure: unknown) => failure,
  );
  expect(error).toBeInstanceOf(TransactionCanceledException);
  return error as TransactionCanceledException;
}

function newGeneration(pk: string, extra: Record<string, unknown> = {}): TransactItem {
  return { Put: { TableName: GENERATIONS, Item: { pk, ...extra }, ConditionExpression: 'attribute_not_exists(pk)' } };
}

function addToCounter(pk: string, amount = 1): TransactItem {
  return {
    Update: {
      TableName: COUNTERS,
      Key: { pk, period: '2025-01' },
      UpdateExpression: 'ADD #total :amount SET #label = :label',
      ExpressionAttributeNames: { '#total': 'total', '#label': 'label' },
      ExpressionAttributeValues: { ':amount': amount, ':label': 'updated' },
    },
  };
}

async function putGeneration(pk: string, extra: Record<string, unknown> = {}): Promise<void> {
  await fixture.documents.send(new PutCommand({ TableName: GENERATIONS, Item: { pk, ...extra } }));
}

describe('TransactWriteItems through the transactional front', () => {
  it('applies both writes of a two-table transaction', async () => {
    await transact([newGeneration('gen-both', { tokens: 12 }), addToCounter('both', 12)]);

    expect(await fixture.generation('gen-both')).toEqual({ pk: 'gen-both', tokens: 12 });
    expect(await fixture.counter('both')).toEqual({ pk: 'both', period: '2025-01', total: 12, label: 'updated' });
  });

  it('cancels the whole transaction with one reason per item when a condition fails', async () => {
    await putGeneration('gen-taken');

    const error = await cancellationOf(transact([addToCounter('cancelled'), newGeneration('gen-taken')]));

    expect(error.CancellationReasons).toEqual([{ Code: 'None' }, { Code: 'ConditionalCheckFailed' }]);
    expect(error.message).toBe('Transaction cancelled, please refer cancellation reasons for specific reasons [None, ConditionalCheckFailed]');
    expect(await fixture.counter('cancelled')).toBeUndefined();
  });

  it('rolls back an update applied before a failing condition', async () => {
    await transact([addToCounter('rollback', 5)]);
    await putGeneration('gen-rollback-taken');

    await cancellationOf(transact([addToCounter('rollback', 1), newGeneration('gen-rollback-taken')]));

    expect(await fixture.counter('rollback')).toEqual({ pk: 'rollback', period: '2025-01', total: 5, label: 'updated' });
  });

  it('removes an item that a rolled-back put created', async () => {
    await putGeneration('gen-blocker');

    await cancellationOf(transact([newGeneration('gen-created-then-undone'), newGeneration('gen-blocker')]));

    expect(await fixture.generation('gen-created-then-undone')).toBeUndefined();
  });

  it('restores the items a rolled-back put overwrote and a rolled-back delete removed', async () => {
    await putGeneration('gen-overwritten', { tokens: 1, note: 'original' });
    await putGeneration('gen-deleted', { tokens: 2 });
    await putGeneration('gen-third-blocker');

    const error = await cancellationOf(
      transact([
        { Put: { TableName: GENERATIONS, Item: { pk: 'gen-overwritten', tokens: 99 } } },
        { Delete: { TableName: GENERATIONS, Key: { pk: 'gen-deleted' } } },
        newGeneration('gen-third-blocker'),
      ]),
    );

    expect(error.CancellationReasons).toEqual([{ Code: 'None' }, { Code: 'None' }, { Code: 'ConditionalCheckFailed' }]);
    expect(await fixture.generation('gen-overwritten')).toEqual({ pk: 'gen-overwritten', tokens: 1, note: 'original' });
    expect(await fixture.generation('gen-deleted')).toEqual({ pk: 'gen-deleted', tokens: 2 });
  });

  it('reports every failing condition, not only the first', async () => {
    await putGeneration('gen-fail-one');
    await putGeneration('gen-fail-two');

    const error = await cancellationOf(transact([newGeneration('gen-fail-one'), addToCounter('fail-many'), newGeneration('gen-fail-two')]));

    expect(error.CancellationReasons).toEqual([{ Code: 'ConditionalCheckFailed' }, { Code: 'None' }, { Code: 'ConditionalCheckFailed' }]);
    expect(await fixture.counter('fail-many')).toBeUndefined();
  });

  it('returns the old item of a failed condition when asked for ALL_OLD', async () => {
    await putGeneration('gen-all-old', { tokens: 7 });

    const error = await cancellationOf(
      transact([
        addToCounter('all-old'),
        {
          Put: {
            TableName: GENERATIONS,
            Item: { pk: 'gen-all-old' },
            ConditionExpression: 'attribute_not_exists(pk)',
            ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
          },
        },
      ]),
    );

    // Errors are not unmarshalled by the document client: the item comes back in wire form.
    expect(error.CancellationReasons?.[1]).toEqual({ Code: 'ConditionalCheckFailed', Item: { pk: { S: 'gen-all-old' }, tokens: { N: '7' } } });
  });

  it('applies the transaction when a condition check on a missing item passes, leaving no stub item', async () => {
    await transact([
      { ConditionCheck: { TableName: GENERATIONS, Key: { pk: 'gen-never-written' }, ConditionExpression: 'attribute_not_exists(pk)' } },
      newGeneration('gen-after-check'),
    ]);

    expect(await fixture.generation('gen-after-check')).toEqual({ pk: 'gen-after-check' });
    expect(await fixture.generation('gen-never-written')).toBeUndefined();
  });

  it('leaves an existing item unchanged when its condition check passes', async () => {
    await putGeneration('gen-checked', { tokens: 3 });

    await transact([
      {
        ConditionCheck: {
          TableName: GENERATIONS,
          Key: { pk: 'gen-checked' },
          ConditionExpression: '#tokens = :three',
          ExpressionAttributeNames: { '#tokens': 'tokens' },
          ExpressionAttributeValues: { ':three': 3 },
        },
      },
      addToCounter('checked'),
    ]);

    expect(await fixture.generation('gen-checked')).toEqual({ pk: 'gen-checked', tokens: 3 });
    expect(await fixture.counter('checked')).toMatchObject({ total: 1 });
  });

  it('cancels the transaction when a condition check fails, leaving no stub item', async () => {
    const error = await cancellationOf(
      transact([
        { ConditionCheck: { TableName: GENERATIONS, Key: { pk: 'gen-missing' }, ConditionExpression: 'attribute_exists(pk)' } },
        newGeneration('gen-not-after-failed-check'),
      ]),
    );

    expect(error.CancellationReasons).toEqual([{ Code: 'ConditionalCheckFailed' }, { Code: 'None' }]);
    expect(await fixture.generation('gen-missing')).toBeUndefined();
    expect(await fixture.generation('gen-not-after-failed-check')).toBeUndefined();
  });

  it('rejects two operations on the same item, even with key attributes in another order', async () => {
    const attempt = transact([
      addToCounter('duplicate'),
      { ConditionCheck: { TableName: COUNTERS, Key: { period: '2025-01', pk: 'duplicate' }, ConditionExpression: 'attribute_not_exists(pk)' } },
    ]);

    await expect(attempt).rejects.toMatchObject({ name: 'ValidationException', message: expect.stringContaining('multiple operations on one item') });
    expect(await fixture.counter('duplicate')).toBeUndefined();
  });

  it('rejects more than 100 items and applies none of them', async () => {
    const items = Array.from({ length: 101 }, (_, index) => newGeneration(`gen-over-limit-${index}`));

    await expect(transact(items)).rejects.toMatchObject({ name: 'ValidationException', message: expect.stringContaining('less than or equal to 100') });
    expect(await fixture.generation('gen-over-limit-0')).toBeUndefined();
  });

  it('accepts exactly 100 items', async () => {
    await transact(Array.from({ length: 100 }, (_, index) => newGeneration(`gen-at-limit-${index}`)));

    expect(await fixture.generation('gen-at-limit-0')).toEqual({ pk: 'gen-at-limit-0' });
    expect(await fixture.generation('gen-at-limit-99')).toEqual({ pk: 'gen-at-limit-99' });
  });

  it('judges a put conditioned on a non-key attribute by the stored item, not by whether the item exists', async () => {
    await putGeneration('gen-without-tokens');
    const setTokens = (tokens: number): TransactItem => ({
      Put: { TableName: GENERATIONS, Item: { pk: 'gen-without-tokens', tokens }, ConditionExpression: 'attribute_not_exists(tokens)' },
    });

    await transact([setTokens(3)]);
    const error = await cancellationOf(transact([setTokens(4)]));

    expect(error.CancellationReasons).toEqual([{ Code: 'ConditionalCheckFailed' }]);
    expect(await fixture.generation('gen-without-tokens')).toEqual({ pk: 'gen-without-tokens', tokens: 3 });
  });

  it('writes none of many new items when one, named through a placeholder, already exists', async () => {
    await putGeneration('gen-placeholder-taken');
    const fresh = Array.from({ length: 60 }, (_, index) => newGeneration(`gen-beside-taken-${index}`));
    const taken: TransactItem = {
      Put: { TableName: GENERATIONS, Item: { pk: 'gen-placeholder-taken' }, ConditionExpression: 'attribute_not_exists(#key)', ExpressionAttributeNames: { '#key': 'pk' } },
    };

    const error = await cancellationOf(transact([...fresh, taken]));

    expect(error.CancellationReasons?.at(-1)).toEqual({ Code: 'ConditionalCheckFailed' });
    expect(error.CancellationReasons?.slice(0, 60).every((reason) => reason.Code === 'None')).toBe(true);
    expect(await fixture.generation('gen-beside-taken-0')).toBeUndefined();
    expect(await fixture.generation('gen-beside-taken-59')).toBeUndefined();
  });

  it('writes every one of many new items in one transaction, with an update beside them', async () => {
    await transact([...Array.from({ length: 60 }, (_, index) => newGeneration(`gen-many-${index}`)), addToCounter('many', 60)]);

    expect(await fixture.generation('gen-many-0')).toEqual({ pk: 'gen-many-0' });
    expect(await fixture.generation('gen-many-59')).toEqual({ pk: 'gen-many-59' });
    expect(await fixture.counter('many')).toMatchObject({ total: 60 });
  });

  it('passes a non-conditional store error through and rolls back what was applied', async () => {
    const attempt = transact([
      newGeneration('gen-before-bad-update'),
      { Update: { TableName: COUNTERS, Key: { pk: 'bad-update', period: '2025-01' }, UpdateExpression: 'SET #undefinedName = :v', ExpressionAttributeValues: { ':v': 1 } } },
    ]);

    await expect(attempt).rejects.toMatchObject({ name: 'ValidationException' });
    expect(await fixture.generation('gen-before-bad-update')).toBeUndefined();
  });

  it('answers ResourceNotFoundException for a table that does not exist', async () => {
    const attempt = transact([{ Put: { TableName: 'no-such-table', Item: { pk: 'x' } } }]);

    await expect(attempt).rejects.toMatchObject({ name: 'ResourceNotFoundException' });
  });

  it('rejects a put whose item lacks a key attribute', async () => {
    const attempt = transact([{ Put: { TableName: COUNTERS, Item: { pk: 'no-period' } } }]);

    await expect(attempt).rejects.toMatchObject({ name: 'ValidationException', message: expect.stringContaining('Missing the key period') });
  });
});
