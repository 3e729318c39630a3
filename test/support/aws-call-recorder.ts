import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { vi } from 'vitest';

/** One request to AWS as IAM authorizes it: the action, the ARN of the resource it acts on, and condition keys it sets. */
export interface AwsCall {
  action: string;
  resource: string;
  /** Request-specific condition keys, e.g. `s3:prefix` of a listing. */
  context?: Record<string, string>;
}

export interface AwsCallContext {
  region: string;
  account: string;
  /** The workgroup of each Athena query id: IAM authorizes a query's later calls on its workgroup. */
  athenaWorkGroups?: ReadonlyMap<string, string>;
}

interface SentCommand {
  constructor: { name: string };
  input: Record<string, unknown>;
}

/** The document client's commands, by the DynamoDB action IAM checks for each. */
const dynamoActions: Record<string, string> = {
  GetCommand: 'GetItem',
  GetItemCommand: 'GetItem',
  PutCommand: 'PutItem',
  PutItemCommand: 'PutItem',
  UpdateCommand: 'UpdateItem',
  UpdateItemCommand: 'UpdateItem',
  DeleteCommand: 'DeleteItem',
  DeleteItemCommand: 'DeleteItem',
  QueryCommand: 'Query',
  ScanCommand: 'Scan',
};
/** A transaction is authorized item by item, with the item's own action. */
const transactionItemActions: Record<string, string> = { Put: 'PutItem', Update: 'UpdateItem', Delete: 'DeleteItem', ConditionCheck: 'ConditionCheckItem' };

function dynamoCalls(command: SentCommand, context: AwsCallContext): AwsCall[] {
  const tableArn = (table: unknown) => `arn:aws:dynamodb:${context.region}:${context.account}:table/${String(table)}`;
  const name = command.constructor.name;
  const input = command.input;
  const single = dynamoActions[name];
  if (single) {
    const index = typeof input.IndexName === 'string' ? `/index/${input.IndexName}` : '';
    return [{ action: `dynamodb:${single}`, resource: `${tableArn(input.TableName)}${index}` }];
  }
  if (name === 'BatchWriteCommand' || name === 'BatchWriteItemCommand') {
    return Object.keys(input.RequestItems as object).map((table) => ({ action: 'dynamodb:BatchWriteItem', resource: tableArn(table) }));
  }
  if (name === 'BatchGetCommand' || name === 'BatchGetItemCommand') {
    return Object.keys(input.RequestItems as object).map((table) => ({ action: 'dynamodb:BatchGetItem', resource: tableArn(table) }));
  }
  if (name === 'TransactWriteCommand' || name === 'TransactWriteItemsCommand') {
    return (input.TransactItems as Record<string, { TableName: string }>[]).flatMap((item) =>
      Object.entries(item).map(([kind, operation]) => {
        const action = transactionItemActions[kind];
        if (!action) throw new Error(`No IAM action known for the transaction item ${kind}`);
        return { action: `dynamodb:${action}`, resource: tableArn(operation.TableName) };
      }),
    );
  }
  throw new Error(`No IAM action known for DynamoDB's ${name}: add it to test/support/aws-call-recorder.ts`);
}

/**
 * Every command the code sends to DynamoDB while recording, passed through to the real client (locally,
 * the embedded store); other services are faked with aws-sdk-client-mock and read from the mocks' calls
 * (see iamCallOf). The spy sits on the clients' prototypes, so clients the wiring creates are seen too.
 */
export function recordDynamoCalls(context: AwsCallContext) {
  const calls: AwsCall[] = [];
  let recording = false;
  for (const client of [DynamoDBDocumentClient, DynamoDBClient] as const) {
    const original = client.prototype.send as (this: unknown, ...args: unknown[]) => unknown;
    vi.spyOn(client.prototype, 'send').mockImplementation(function (this: unknown, ...args: unknown[]) {
      // The document client sends its commands through its own send, never through DynamoDBClient's.
      if (recording) calls.push(...dynamoCalls(args[0] as SentCommand, context));
      return original.apply(this, args);
    } as never);
  }
  return {
    calls,
    start: () => {
      recording = true;
    },
    stop: () => {
      recording = false;
    },
  };
}

function secretArn(id: string, context: AwsCallContext): string {
  // A secret named by its name is authorized on its ARN, which ends in a random six-character suffix.
  return id.startsWith('arn:') ? id : `arn:aws:secretsmanager:${context.region}:${context.account}:secret:${id}-AbCdEf`;
}

function queueArn(queueUrl: string, context: AwsCallContext): string {
  const [, account, name] = new URL(queueUrl).pathname.split('/');
  return `arn:aws:sqs:${context.region}:${account ?? context.account}:${name ?? ''}`;
}

function athenaWorkGroupArn(workGroup: string, context: AwsCallContext): string {
  return `arn:aws:athena:${context.region}:${context.account}:workgroup/${workGroup}`;
}

/** The IAM action and resource of a Secrets Manager, S3 or Athena command (as sent to a mock). */
export function iamCallsOf(command: SentCommand, context: AwsCallContext): AwsCall[] {
  const name = command.constructor.name.replace(/Command$/, '');
  const input = command.input;
  switch (name) {
    case 'GetSecretValue':
    case 'PutSecretValue':
    case 'DescribeSecret':
    case 'DeleteSecret':
      return [{ action: `secretsmanager:${name}`, resource: secretArn(String(input.SecretId), context) }];
    case 'CreateSecret':
      return [{ action: 'secretsmanager:CreateSecret', resource: secretArn(String(input.Name), context) }];
    case 'PutObject':
    case 'GetObject':
    case 'DeleteObject':
      return [{ action: `s3:${name}`, resource: `arn:aws:s3:::${String(input.Bucket)}/${String(input.Key)}` }];
    case 'HeadObject':
      return [{ action: 's3:GetObject', resource: `arn:aws:s3:::${String(input.Bucket)}/${String(input.Key)}` }];
    case 'DeleteObjects':
      return ((input.Delete as { Objects: { Key: string }[] }).Objects ?? []).map(({ Key }) => ({
        action: 's3:DeleteObject',
        resource: `arn:aws:s3:::${String(input.Bucket)}/${Key}`,
      }));
    case 'ListObjectsV2':
      return [{ action: 's3:ListBucket', resource: `arn:aws:s3:::${String(input.Bucket)}`, context: { 's3:prefix': String(input.Prefix ?? '') } }];
    case 'StartQueryExecution':
      return [{ action: 'athena:StartQueryExecution', resource: athenaWorkGroupArn(String(input.WorkGroup), context) }];
    case 'GetQueryExecution':
    case 'GetQueryResults':
    case 'StopQueryExecution': {
      const workGroup = context.athenaWorkGroups?.get(String(input.QueryExecutionId));
      if (!workGroup) throw new Error(`No workgroup known for the Athena query ${String(input.QueryExecutionId)}`);
      return [{ action: `athena:${name}`, resource: athenaWorkGroupArn(workGroup, context) }];
    }
    default:
      throw new Error(`No IAM action known for ${command.constructor.name}: add it to test/support/aws-call-recorder.ts`);
  }
}

/** The IAM check of one SendMessage a fake SQS took (the route groups send without the SDK's client). */
export function sqsIamCalls(message: { queueUrl: string }, context: AwsCallContext): AwsCall[] {
  return [{ action: 'sqs:SendMessage', resource: queueArn(message.queueUrl, context) }];
}

/**
 * The IAM checks of one Bedrock runtime call: InvokeModel (which Converse is authorized as) or
 * InvokeModelWithResponseStream (ConverseStream too), on the model; a system inference profile is checked
 * on the profile and on the foundation model where it routes the request (here, its own region).
 */
export function bedrockIamCalls(request: { operation: string; model: string }, context: AwsCallContext): AwsCall[] {
  const action = request.operation.endsWith('stream') ? 'bedrock:InvokeModelWithResponseStream' : 'bedrock:InvokeModel';
  const foundationModel = (model: string) => `arn:aws:bedrock:${context.region}::foundation-model/${model}`;
  if (request.model.startsWith('arn:')) return [{ action, resource: request.model }];
  const profile = /^(us|us-gov|eu|apac|jp|au|ca|global)\.(.+)$/.exec(request.model);
  if (!profile) return [{ action, resource: foundationModel(request.model) }];
  return [
    { action, resource: `arn:aws:bedrock:${context.region}:${context.account}:inference-profile/${request.model}` },
    { action, resource: foundationModel(profile[2] ?? '') },
  ];
}
