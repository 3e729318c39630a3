import * as z from 'zod';

/** A DynamoDB item or key in wire form: attribute name → AttributeValue (`{ S: 'x' }`, `{ N: '1' }`…). */
export type AttributeMap = Record<string, unknown>;

export const MAX_TRANSACT_ITEMS = 100;

// An attribute no item uses: the target of a ConditionCheck's do-nothing update.
const NOOP_PLACEHOLDER = '#gatewayTransactNoop';
const NOOP_ATTRIBUTE = '__gateway_transact_noop__';

const attributeMap = z.record(z.string(), z.unknown());
const commonFields = {
  TableName: z.string().min(1),
  ConditionExpression: z.string().optional(),
  ExpressionAttributeNames: z.record(z.string(), z.string()).optional(),
  ExpressionAttributeValues: attributeMap.optional(),
  ReturnValuesOnConditionCheckFailure: z.enum(['ALL_OLD', 'NONE']).optional(),
};
const transactItemSchema = z.object({
  Put: z.object({ ...commonFields, Item: attributeMap }).optional(),
  Update: z.object({ ...commonFields, Key: attributeMap, UpdateExpression: z.string() }).optional(),
  Delete: z.object({ ...commonFields, Key: attributeMap }).optional(),
  ConditionCheck: z.object({ ...commonFields, Key: attributeMap, ConditionExpression: z.string() }).optional(),
});
const transactWriteRequestSchema = z.object({ TransactItems: z.array(transactItemSchema) });

type TransactItem = z.infer<typeof transactItemSchema>;
type CommonFields = z.infer<z.ZodObject<typeof commonFields>>;

export type SingleItemOperation = 'PutItem' | 'UpdateItem' | 'DeleteItem';

/** One item of a transaction, turned into the single-item request that applies it. */
export interface TransactStep {
  tableName: string;
  key: AttributeMap;
  /** A ConditionCheck only tests: it changes nothing and so is never rolled back. */
  isConditionCheck: boolean;
  returnOldItemOnFailure: boolean;
  operation: SingleItemOperation;
  request: Record<string, unknown>;
  /**
   * A Put with no condition, or one asking only that the item not exist: the emulator decides it from the
   * item's before-image (nothing else writes meanwhile) and writes it in a batch with the others.
   */
  plainPut?: { requiresAbsence: boolean };
}

/** A request AWS would refuse before touching any item: answered as a ValidationException. */
export class TransactValidationError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'TransactValidationError';
  }
}

/** The key attribute names of a table (hash first, then range), from its KeySchema. */
export type KeyAttributesLookup = (tableName: string) => Promise<readonly string[]>;

/** Validates a TransactWriteItems payload as AWS does and plans one step per item, in order. */
export async function planTransactWrite(payload: unknown, keyAttributesOf: KeyAttributesLookup): Promise<TransactStep[]> {
  const parsed = transactWriteRequestSchema.safeParse(payload);
  if (!parsed.success) throw new TransactValidationError(`Invalid TransactWriteItems request: ${z.prettifyError(parsed.error)}`);
  const items = parsed.data.TransactItems;
  if (items.length < 1 || items.length > MAX_TRANSACT_ITEMS) {
    const bound = items.length < 1 ? 'greater than or equal to 1' : `less than or equal to ${MAX_TRANSACT_ITEMS}`;
    throw new TransactValidationError(
      `1 validation error detected: Value with ${items.length} elements at 'transactItems' failed to satisfy constraint: Member must have length ${bound}`,
    );
  }
  const steps: TransactStep[] = [];
  const seenItems = new Set<string>();
  for (const item of items) {
    const step = await planStep(item, keyAttributesOf);
    const keyAttributes = await keyAttributesOf(step.tableName);
    // Key attributes in schema order, so `{ pk, sk }` and `{ sk, pk }` name the same item.
    const identity = JSON.stringify([step.tableName, ...keyAttributes.map((name) => step.key[name] ?? null)]);
    if (seenItems.has(identity)) throw new TransactValidationError('Transaction request cannot include multiple operations on one item');
    seenItems.add(identity);
    steps.push(step);
  }
  return steps;
}

async function planStep(item: TransactItem, keyAttributesOf: KeyAttributesLookup): Promise<TransactStep> {
  const given = [item.Put, item.Update, item.Delete, item.ConditionCheck].filter((operation) => operation !== undefined);
  if (given.length !== 1) throw new TransactValidationError('TransactItems can only contain one of Check, Put, Update or Delete');
  if (item.Put) {
    const key = await keyOfItem(item.Put.TableName, item.Put.Item, keyAttributesOf);
    const plainPut = plainPutCondition(item.Put, await keyAttributesOf(item.Put.TableName));
    return { ...step(item.Put, key, 'PutItem', { Item: item.Put.Item }), ...(plainPut ? { plainPut } : {}) };
  }
  if (item.Update) return step(item.Update, item.Update.Key, 'UpdateItem', { Key: item.Update.Key, UpdateExpression: item.Update.UpdateExpression });
  if (item.Delete) return step(item.Delete, item.Delete.Key, 'DeleteItem', { Key: item.Delete.Key });
  const check = item.ConditionCheck;
  if (!check) throw new TransactValidationError('TransactItems can only contain one of Check, Put, Update or Delete');
  // dynalite has no condition-only request: an update that removes an attribute no item has tests the
  // condition and leaves an existing item as it was (a missing one gets a stub the emulator deletes).
  const checking = step(check, check.Key, 'UpdateItem', {
    Key: check.Key,
    UpdateExpression: `REMOVE ${NOOP_PLACEHOLDER}`,
    ExpressionAttributeNames: { ...check.ExpressionAttributeNames, [NOOP_PLACEHOLDER]: NOOP_ATTRIBUTE },
  });
  return { ...checking, isConditionCheck: true };
}

function step(fields: CommonFields, key: AttributeMap, operation: SingleItemOperation, specific: Record<string, unknown>): TransactStep {
  return {
    tableName: fields.TableName,
    key,
    isConditionCheck: false,
    returnOldItemOnFailure: fields.ReturnValuesOnConditionCheckFailure === 'ALL_OLD',
    operation,
    request: {
      TableName: fields.TableName,
      ConditionExpression: fields.ConditionExpression,
      ExpressionAttributeNames: fields.ExpressionAttributeNames,
      ExpressionAttributeValues: fields.ExpressionAttributeValues,
      ...specific,
    },
  };
}

const ABSENCE_CONDITION = /^\s*attribute_not_exists\s*\(\s*(#?[A-Za-z0-9_]+)\s*\)\s*$/;

/** A Put's condition when it is none, or the absence of a key attribute (the item's absence); else undefined. */
function plainPutCondition(put: CommonFields, keyAttributes: readonly string[]): { requiresAbsence: boolean } | undefined {
  if (put.ExpressionAttributeValues !== undefined) return undefined;
  const names = put.ExpressionAttributeNames ?? {};
  if (put.ConditionExpression === undefined) return put.ExpressionAttributeNames === undefined ? { requiresAbsence: false } : undefined;
  const operand = ABSENCE_CONDITION.exec(put.ConditionExpression)?.[1];
  if (operand === undefined) return undefined;
  // Exactly the names the condition uses, as AWS requires: anything else is left to the store to judge.
  const attribute = operand.startsWith('#') ? names[operand] : operand;
  const namesUsed = Object.keys(names).length === (operand.startsWith('#') ? 1 : 0);
  return attribute !== undefined && namesUsed && keyAttributes.includes(attribute) ? { requiresAbsence: true } : undefined;
}

async function keyOfItem(tableName: string, item: AttributeMap, keyAttributesOf: KeyAttributesLookup): Promise<AttributeMap> {
  const key: AttributeMap = {};
  for (const name of await keyAttributesOf(tableName)) {
    if (item[name] === undefined) throw new TransactValidationError(`One or more parameter values were invalid: Missing the key ${name} in the item`);
    key[name] = item[name];
  }
  return key;
}
