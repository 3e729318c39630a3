import * as z from 'zod';
import { errorNameOf, StoreError, type StoreConnection, type StoreResponse } from './store-connection.ts';
import type { BeforeImage, TransactionUndoLog } from './transaction-undo-log.ts';
import { planTransactWrite, TransactValidationError, type AttributeMap, type TransactStep } from './transact-write-plan.ts';

const DYNAMODB_ERROR = 'com.amazonaws.dynamodb.v20120810';

/** What the front answers to a TransactWriteItems: its own JSON, or a store error relayed unchanged. */
export type TransactOutcome = { kind: 'answer'; status: number; payload: object } | { kind: 'relay'; response: StoreResponse };

interface CancellationReason {
  Code: 'None' | 'ConditionalCheckFailed';
  Item?: AttributeMap;
}

const describeTableSchema = z.object({ Table: z.object({ KeySchema: z.array(z.object({ AttributeName: z.string(), KeyType: z.enum(['HASH', 'RANGE']) })) }) });
const batchGetSchema = z.object({
  Responses: z.record(z.string(), z.array(z.record(z.string(), z.unknown()))).optional(),
  UnprocessedKeys: z.record(z.string(), z.object({ Keys: z.array(z.record(z.string(), z.unknown())) })).optional(),
});
const BATCH_GET_KEYS = 100;
const batchWriteSchema = z.object({
  UnprocessedItems: z.record(z.string(), z.array(z.object({ PutRequest: z.object({ Item: z.record(z.string(), z.unknown()) }).optional() }))).optional(),
});
const BATCH_WRITE_ITEMS = 25;

/**
 * TransactWriteItems on top of dynalite's single-item writes. The caller must run `execute` while no
 * other write reaches the store (the front's write mutex): before-images, steps and rollback then see
 * no interleaved write. Reads are not held back, so a concurrent read may see a half-applied transaction.
 * With an undo log, a transaction a crash cut off is undone when the store opens again.
 */
export class TransactWriteEmulator {
  private readonly keyAttributes = new Map<string, readonly string[]>();

  private readonly store: StoreConnection;
  private readonly undoLog?: TransactionUndoLog;

  constructor(store: StoreConnection, undoLog?: TransactionUndoLog) {
    this.store = store;
    this.undoLog = undoLog;
  }

  /** Puts back the items of transactions a killed process left half-applied (from the undo log). */
  async undo(unfinished: BeforeImage[][]): Promise<void> {
    for (const items of unfinished) {
      for (const { tableName, key, item } of items) {
        if (item) await this.store.callOk('PutItem', { TableName: tableName, Item: item });
        else await this.store.callOk('DeleteItem', { TableName: tableName, Key: key });
      }
    }
  }

  /** Tables may have been deleted and created again with another key schema. */
  forgetKeySchemas(): void {
    this.keyAttributes.clear();
  }

  async execute(payload: unknown): Promise<TransactOutcome> {
    try {
      const steps = await planTransactWrite(payload, (tableName) => this.keyAttributesOf(tableName));
      const beforeImages = await this.readItems(steps);
      const logged = this.undoLog?.begin(steps.map((step, index) => ({ tableName: step.tableName, key: step.key, item: beforeImages[index] })));
      try {
        return await this.applyAll(steps, beforeImages);
      } finally {
        if (logged !== undefined) this.undoLog?.end(logged);
      }
    } catch (error) {
      if (error instanceof TransactValidationError) {
        return { kind: 'answer', status: 400, payload: { __type: 'com.amazon.coral.validate#ValidationException', message: error.message } };
      }
      if (error instanceof StoreError) return { kind: 'relay', response: error.response };
      throw error;
    }
  }

  private async applyAll(steps: TransactStep[], beforeImages: (AttributeMap | undefined)[]): Promise<TransactOutcome> {
    // Plain puts are decided from their before-images and written together, in batches; when one of them
    // fails its condition, none is written (the transaction is cancelled anyway).
    const decided = steps.map((step, index) => (step.plainPut ? plainPutReason(step, beforeImages[index]) : undefined));
    const batched = decided.every((reason) => reason === undefined || reason.Code === 'None') ? steps.flatMap((step, index) => (step.plainPut ? [index] : [])) : [];
    const batchFailure = this.putAll(steps, batched).then(
      () => undefined,
      (error: unknown) => ({ error }),
    );
    // The items are distinct, so no step can change another's condition: they run side by side, and every
    // one runs even after a failed condition, so that each failing item gets its reason, as in AWS.
    const results = await Promise.allSettled(steps.map((step, index) => decided[index] ?? this.applyStep(step, beforeImages[index])));
    const batchOutcome = await batchFailure;
    const applied = steps.flatMap((step, index) =>
      results[index]?.status === 'fulfilled' && results[index].value.Code === 'None' && !step.isConditionCheck && (!step.plainPut || batched.includes(index)) ? [index] : [],
    );
    const failure = results.find((result) => result.status === 'rejected');
    if (failure || batchOutcome) {
      await this.rollBack(steps, beforeImages, applied);
      throw batchOutcome ? batchOutcome.error : (failure as PromiseRejectedResult).reason;
    }
    const reasons = results.map((result) => (result as PromiseFulfilledResult<CancellationReason>).value);
    if (reasons.every((reason) => reason.Code === 'None')) return { kind: 'answer', status: 200, payload: {} };
    await this.rollBack(steps, beforeImages, applied);
    return { kind: 'answer', status: 400, payload: cancellation(reasons) };
  }

  /** Writes the plain puts at `indices` with BatchWriteItem, 25 items a request, as DynamoDB allows. */
  private async putAll(steps: TransactStep[], indices: number[]): Promise<void> {
    const pending = indices.flatMap((index) => {
      const step = steps[index];
      return step ? [{ tableName: step.tableName, item: step.request.Item }] : [];
    });
    while (pending.length > 0) {
      const requestItems: Record<string, { PutRequest: { Item: unknown } }[]> = {};
      for (const { tableName, item } of pending.splice(0, BATCH_WRITE_ITEMS)) (requestItems[tableName] ??= []).push({ PutRequest: { Item: item } });
      const answer = batchWriteSchema.parse(await this.store.callOk('BatchWriteItem', { RequestItems: requestItems }));
      for (const [tableName, requests] of Object.entries(answer.UnprocessedItems ?? {})) {
        for (const request of requests) pending.push({ tableName, item: request.PutRequest?.Item });
      }
    }
  }

  private async applyStep(step: TransactStep, before: AttributeMap | undefined): Promise<CancellationReason> {
    const response = await this.store.call(step.operation, step.request);
    if (response.status === 200) {
      if (step.isConditionCheck && before === undefined) await this.store.callOk('DeleteItem', { TableName: step.tableName, Key: step.key });
      return { Code: 'None' };
    }
    if (errorNameOf(response) === 'ConditionalCheckFailedException') {
      return step.returnOldItemOnFailure && before ? { Code: 'ConditionalCheckFailed', Item: before } : { Code: 'ConditionalCheckFailed' };
    }
    throw new StoreError(response);
  }

  /** Restores the before-image of every applied step, last applied first. */
  private async rollBack(steps: TransactStep[], beforeImages: (AttributeMap | undefined)[], applied: number[]): Promise<void> {
    for (const index of [...applied].reverse()) {
      const step = steps[index];
      if (!step) continue;
      const before = beforeImages[index];
      try {
        if (before) await this.store.callOk('PutItem', { TableName: step.tableName, Item: before });
        else await this.store.callOk('DeleteItem', { TableName: step.tableName, Key: step.key });
      } catch (error) {
        throw new Error(`Could not roll back a transaction step on table ${step.tableName}: the store may hold a partial transaction`, { cause: error });
      }
    }
  }

  /** The items the steps will write, as they are now: a BatchGetItem per table (100 keys each), not a GetItem per step. */
  private async readItems(steps: TransactStep[]): Promise<(AttributeMap | undefined)[]> {
    const found = new Map<string, AttributeMap>();
    for (const tableName of new Set(steps.map((step) => step.tableName))) {
      const pending = steps.filter((step) => step.tableName === tableName).map((step) => step.key);
      while (pending.length > 0) {
        const keys = pending.splice(0, BATCH_GET_KEYS);
        const answer = batchGetSchema.parse(await this.store.callOk('BatchGetItem', { RequestItems: { [tableName]: { Keys: keys, ConsistentRead: true } } }));
        for (const item of answer.Responses?.[tableName] ?? []) found.set(await this.identityOf(tableName, item), item);
        pending.push(...(answer.UnprocessedKeys?.[tableName]?.Keys ?? []));
      }
    }
    return Promise.all(steps.map(async (step) => found.get(await this.identityOf(step.tableName, step.key))));
  }

  /** An item's key attributes in schema order: the same string for its key and for the item itself. */
  private async identityOf(tableName: string, item: AttributeMap): Promise<string> {
    return JSON.stringify((await this.keyAttributesOf(tableName)).map((name) => item[name] ?? null));
  }

  private async keyAttributesOf(tableName: string): Promise<readonly string[]> {
    const known = this.keyAttributes.get(tableName);
    if (known) return known;
    const { Table } = describeTableSchema.parse(await this.store.callOk('DescribeTable', { TableName: tableName }));
    const ordered = [...Table.KeySchema].sort((a, b) => (a.KeyType === b.KeyType ? 0 : a.KeyType === 'HASH' ? -1 : 1));
    const names = ordered.map((element) => element.AttributeName);
    this.keyAttributes.set(tableName, names);
    return names;
  }
}

/** A plain put's outcome from the item as it is: it fails only when it asked for an absent item and found one. */
function plainPutReason(step: TransactStep, before: AttributeMap | undefined): CancellationReason {
  if (!step.plainPut?.requiresAbsence || before === undefined) return { Code: 'None' };
  return step.returnOldItemOnFailure ? { Code: 'ConditionalCheckFailed', Item: before } : { Code: 'ConditionalCheckFailed' };
}

function cancellation(reasons: CancellationReason[]): object {
  const codes = reasons.map((reason) => reason.Code).join(', ');
  return {
    __type: `${DYNAMODB_ERROR}#TransactionCanceledException`,
    message: `Transaction cancelled, please refer cancellation reasons for specific reasons [${codes}]`,
    CancellationReasons: reasons,
  };
}
