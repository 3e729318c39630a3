import type {
  BatchWriteCommandInput,
  DeleteCommandInput,
  GetCommandInput,
  PutCommandInput,
  QueryCommandInput,
  ScanCommandInput,
  TransactWriteCommandInput,
  UpdateCommandInput,
} from '@aws-sdk/lib-dynamodb';

/** An item as the adapters see it: plain JavaScript values, not DynamoDB's typed attribute values. */
export type Document = Record<string, unknown>;

/** A page of a query or scan. */
export interface DocumentPage {
  Items: Document[];
  LastEvaluatedKey?: Document;
}

/**
 * DynamoDB as the adapters use it: the operations of the SDK's document client, with the same inputs
 * (plain values where DynamoDB has typed attributes) and the parts of the outputs they read. A refusal
 * is an error named by its type (`ConditionalCheckFailedException`; a cancelled transaction also
 * carries its `CancellationReasons`). Served by signed JSON calls (dynamo-json-documents.ts).
 */
export interface DynamoDocuments {
  get(input: GetCommandInput): Promise<{ Item?: Document }>;
  put(input: PutCommandInput): Promise<{ Attributes?: Document }>;
  update(input: UpdateCommandInput): Promise<{ Attributes?: Document }>;
  delete(input: DeleteCommandInput): Promise<{ Attributes?: Document }>;
  query(input: QueryCommandInput): Promise<DocumentPage>;
  scan(input: ScanCommandInput): Promise<DocumentPage>;
  transactWrite(input: TransactWriteCommandInput): Promise<void>;
  /** What DynamoDB did not write this time (to send again), if anything. */
  batchWrite(input: BatchWriteCommandInput): Promise<{ UnprocessedItems?: BatchWriteCommandInput['RequestItems'] }>;
}

/** One reason per item of a cancelled transaction (`None` for the items that were not the cause). */
export interface CancellationReason {
  Code?: string;
  Message?: string;
  Item?: Document;
}

/** A cancelled transaction's reasons, from our refusal or the SDK's exception alike. */
export function cancellationReasons(error: unknown): CancellationReason[] {
  if (!(error instanceof Error) || error.name !== 'TransactionCanceledException') return [];
  const reasons = (error as { CancellationReasons?: unknown }).CancellationReasons;
  return Array.isArray(reasons) ? (reasons as CancellationReason[]) : [];
}

/** Every item a query matches, page after page (a page holds at most 1 MB). */
export function queryAll(documents: DynamoDocuments, input: QueryCommandInput): Promise<Document[]> {
  return allPages((from) => documents.query({ ...input, ...from }));
}

/** Every item a scan finds, page after page. */
export function scanAll(documents: DynamoDocuments, input: ScanCommandInput): Promise<Document[]> {
  return allPages((from) => documents.scan({ ...input, ...from }));
}

async function allPages(read: (from: { ExclusiveStartKey?: Document }) => Promise<DocumentPage>): Promise<Document[]> {
  const items: Document[] = [];
  let startKey: Document | undefined;
  do {
    const page = await read(startKey ? { ExclusiveStartKey: startKey } : {});
    items.push(...page.Items);
    startKey = page.LastEvaluatedKey;
  } while (startKey);
  return items;
}
