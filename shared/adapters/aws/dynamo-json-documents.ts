import { marshall, unmarshall, type NativeAttributeValue } from '@aws-sdk/util-dynamodb';
import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import { isAwsError, type AwsJsonService } from '../../transport/aws-json-service.ts';
import type { Document, DocumentPage, DynamoDocuments } from './dynamo-documents.ts';

type Operation<Name extends keyof DynamoDocuments> = Parameters<DynamoDocuments[Name]>[0];

type Input = Record<string, unknown>;
type AttributeMap = Record<string, AttributeValue>;

/** As the SDK's document client is built here: an undefined property is left out, not refused. */
const MARSHALL_OPTIONS = { removeUndefinedValues: true } as const;

/** The input properties that hold items or keys (typed attributes on the wire), as the document client converts them. */
const DOCUMENT_PROPERTIES = ['Item', 'Key', 'ExpressionAttributeValues', 'ExclusiveStartKey'] as const;

function toAttributes(document: unknown): AttributeMap {
  return marshall(document as Record<string, NativeAttributeValue>, MARSHALL_OPTIONS);
}

/** An operation's input with its items and keys as typed attributes. */
function marshallInput(input: object): Input {
  const wire: Input = { ...(input as Input) };
  for (const property of DOCUMENT_PROPERTIES) if (wire[property] !== undefined) wire[property] = toAttributes(wire[property]);
  return wire;
}

/** JSON carries binary attributes as base64 (`B`, `BS`); the document client gives and takes bytes. */
function bytesFromJson(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(bytesFromJson);
  if (typeof value !== 'object' || value === null) return value;
  const attribute = value as Record<string, unknown>;
  if (typeof attribute.B === 'string') return { B: Buffer.from(attribute.B, 'base64') };
  if (Array.isArray(attribute.BS)) return { BS: attribute.BS.map((bytes) => Buffer.from(String(bytes), 'base64')) };
  return Object.fromEntries(Object.entries(attribute).map(([name, nested]) => [name, bytesFromJson(nested)]));
}

function toDocument(attributes: unknown): Document | undefined {
  if (typeof attributes !== 'object' || attributes === null) return undefined;
  return unmarshall(bytesFromJson(attributes) as AttributeMap) as Document;
}

function toPage(output: Input): DocumentPage {
  const items = Array.isArray(output.Items) ? output.Items.map((item) => toDocument(item) ?? {}) : [];
  const lastKey = toDocument(output.LastEvaluatedKey);
  return { Items: items, ...(lastKey ? { LastEvaluatedKey: lastKey } : {}) };
}

function attributesOf(output: Input): { Attributes?: Document } {
  const attributes = toDocument(output.Attributes);
  return attributes ? { Attributes: attributes } : {};
}

/**
 * DynamoDB's document operations over its JSON protocol (`DynamoDB_20120810.*`), signed calls through
 * AwsJsonService: items and keys converted by the SDK's own marshaller (@aws-sdk/util-dynamodb), as the
 * document client does. In AWS, and against the local host's embedded store.
 */
export class DynamoJsonDocuments implements DynamoDocuments {
  private readonly dynamo: AwsJsonService;

  constructor(dynamo: AwsJsonService) {
    this.dynamo = dynamo;
  }

  async get(input: Operation<'get'>): Promise<{ Item?: Document }> {
    const item = toDocument((await this.call('GetItem', marshallInput(input))).Item);
    return item ? { Item: item } : {};
  }

  async put(input: Operation<'put'>): Promise<{ Attributes?: Document }> {
    return attributesOf(await this.call('PutItem', marshallInput(input)));
  }

  async update(input: Operation<'update'>): Promise<{ Attributes?: Document }> {
    return attributesOf(await this.call('UpdateItem', marshallInput(input)));
  }

  async delete(input: Operation<'delete'>): Promise<{ Attributes?: Document }> {
    return attributesOf(await this.call('DeleteItem', marshallInput(input)));
  }

  async query(input: Operation<'query'>): Promise<DocumentPage> {
    return toPage(await this.call('Query', marshallInput(input)));
  }

  async scan(input: Operation<'scan'>): Promise<DocumentPage> {
    return toPage(await this.call('Scan', marshallInput(input)));
  }

  async transactWrite(input: Operation<'transactWrite'>): Promise<void> {
    const transactItems = (input.TransactItems ?? []).map((item) =>
      Object.fromEntries(Object.entries(item).map(([kind, operation]) => [kind, operation ? marshallInput(operation as object) : operation])),
    );
    try {
      await this.call('TransactWriteItems', { ...input, TransactItems: transactItems });
    } catch (error) {
      // The reasons, one per item, with any item they return as plain values (what the document client's exception holds).
      if (isAwsError(error, 'TransactionCanceledException') && 'details' in error) {
        const reasons = (error as { details: Input }).details.CancellationReasons;
        if (Array.isArray(reasons)) {
          const CancellationReasons = reasons.map((reason: Input) => ({ ...reason, ...(reason.Item ? { Item: toDocument(reason.Item) } : {}) }));
          Object.assign(error, { CancellationReasons });
        }
      }
      throw error;
    }
  }

  async batchWrite(input: Operation<'batchWrite'>): Promise<{ UnprocessedItems?: Operation<'batchWrite'>['RequestItems'] }> {
    const convert = (requests: Record<string, Input[]>, convertOne: (document: unknown) => unknown) =>
      Object.fromEntries(
        Object.entries(requests).map(([table, writes]) => [
          table,
          writes.map((write) => ({
            ...(write.PutRequest ? { PutRequest: { Item: convertOne((write.PutRequest as Input).Item) } } : {}),
            ...(write.DeleteRequest ? { DeleteRequest: { Key: convertOne((write.DeleteRequest as Input).Key) } } : {}),
          })),
        ]),
      );
    const output = await this.call('BatchWriteItem', { ...input, RequestItems: convert((input.RequestItems ?? {}) as Record<string, Input[]>, toAttributes) });
    const unprocessed = output.UnprocessedItems as Record<string, Input[]> | undefined;
    return unprocessed && Object.keys(unprocessed).length > 0 ? { UnprocessedItems: convert(unprocessed, toDocument) as Operation<'batchWrite'>['RequestItems'] } : {};
  }

  private call(operation: string, input: object): Promise<Input> {
    return this.dynamo.call(operation, input);
  }
}
