import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

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

/** DynamoDB's operations (as `x-amz-target` names them) that IAM authorizes as an action of the same name on one table or index. */
const singleTableOperations = new Set(['GetItem', 'PutItem', 'UpdateItem', 'DeleteItem', 'Query', 'Scan']);
/** A transaction is authorized item by item, with the item's own action. */
const transactionItemActions: Record<string, string> = { Put: 'PutItem', Update: 'UpdateItem', Delete: 'DeleteItem', ConditionCheck: 'ConditionCheckItem' };

/** The IAM checks of one call in DynamoDB's JSON protocol: its operation and its wire input. */
export function dynamoIamCalls(operation: string, input: Record<string, unknown>, context: AwsCallContext): AwsCall[] {
  const tableArn = (table: unknown) => `arn:aws:dynamodb:${context.region}:${context.account}:table/${String(table)}`;
  if (singleTableOperations.has(operation)) {
    const index = typeof input.IndexName === 'string' ? `/index/${input.IndexName}` : '';
    return [{ action: `dynamodb:${operation}`, resource: `${tableArn(input.TableName)}${index}` }];
  }
  if (operation === 'BatchWriteItem' || operation === 'BatchGetItem') {
    return Object.keys(input.RequestItems as object).map((table) => ({ action: `dynamodb:${operation}`, resource: tableArn(table) }));
  }
  if (operation === 'TransactWriteItems') {
    return (input.TransactItems as Record<string, { TableName: string }>[]).flatMap((item) =>
      Object.entries(item).map(([kind, write]) => {
        const action = transactionItemActions[kind];
        if (!action) throw new Error(`No IAM action known for the transaction item ${kind}`);
        return { action: `dynamodb:${action}`, resource: tableArn(write.TableName) };
      }),
    );
  }
  throw new Error(`No IAM action known for DynamoDB's ${operation}: add it to test/support/aws-call-recorder.ts`);
}

/**
 * A loopback stand-in for DynamoDB's endpoint that passes every call on to `target` (the embedded store)
 * and, while recording, keeps the IAM checks of each call as it went on the wire.
 */
export async function recordDynamoCalls(target: string, context: AwsCallContext) {
  const calls: AwsCall[] = [];
  let recording = false;
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const body = Buffer.concat(chunks);
      const operation = String(request.headers['x-amz-target'] ?? '').split('.').at(-1) ?? '';
      if (recording) calls.push(...dynamoIamCalls(operation, JSON.parse(body.toString('utf8')) as Record<string, unknown>, context));
      const headers = Object.fromEntries(Object.entries(request.headers).filter(([name]) => name !== 'host' && name !== 'connection').map(([name, value]) => [name, String(value)]));
      void fetch(target, { method: 'POST', headers, body }).then(async (answer) => {
        response.writeHead(answer.status, Object.fromEntries(answer.headers));
        response.end(Buffer.from(await answer.arrayBuffer()));
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    endpoint: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    calls,
    start: () => {
      recording = true;
    },
    stop: () => {
      recording = false;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
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

/** The IAM action and resource of a Secrets Manager, S3 or Athena command (as sent to a mock or a fake: `constructor.name` is the operation). */
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
