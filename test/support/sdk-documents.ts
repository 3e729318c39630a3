import {
  BatchWriteCommand,
  DeleteCommand,
  GetCommand,
  PutCommand,
  QueryCommand,
  ScanCommand,
  TransactWriteCommand,
  UpdateCommand,
  type DynamoDBDocumentClient,
} from '@aws-sdk/lib-dynamodb';
import type { Document, DynamoDocuments } from '../../shared/adapters/aws/dynamo-documents.ts';

/**
 * The adapters' DynamoDB documents through the SDK's document client, so that a test can script and read
 * DynamoDB's answers with aws-sdk-client-mock: each operation is the document client's command of the
 * same name and input. (The gateway itself speaks to DynamoDB through DynamoJsonDocuments.)
 */
export function documentsOverSdk(client: DynamoDBDocumentClient): DynamoDocuments {
  const page = (output: { Items?: Document[] | undefined; LastEvaluatedKey?: Document | undefined }) => ({
    Items: output.Items ?? [],
    ...(output.LastEvaluatedKey ? { LastEvaluatedKey: output.LastEvaluatedKey } : {}),
  });
  return {
    get: async (input) => (await client.send(new GetCommand(input))) ?? {},
    put: async (input) => (await client.send(new PutCommand(input))) ?? {},
    update: async (input) => (await client.send(new UpdateCommand(input))) ?? {},
    delete: async (input) => (await client.send(new DeleteCommand(input))) ?? {},
    query: async (input) => page((await client.send(new QueryCommand(input))) ?? {}),
    scan: async (input) => page((await client.send(new ScanCommand(input))) ?? {}),
    transactWrite: async (input) => void (await client.send(new TransactWriteCommand(input))),
    batchWrite: async (input) => (await client.send(new BatchWriteCommand(input))) ?? {},
  };
}
