import { PolicyStatement, type IGrantable } from 'aws-cdk-lib/aws-iam';
import type { ITableV2 } from 'aws-cdk-lib/aws-dynamodb';
import type { IQueue } from 'aws-cdk-lib/aws-sqs';
import type { ISecret } from 'aws-cdk-lib/aws-secretsmanager';
import { KEYS_BY_PROJECT_INDEX } from '../../shared/adapters/aws/table-definitions.ts';
import type { RouteGroup } from '../route-groups.ts';

/**
 * What each function's code sends to AWS, granted action by action: no CDK `grantReadData`-style bundles,
 * which add Scan, BatchGetItem, DescribeTable… that no code sends. test/infra/least-privilege.test.ts
 * drives each function's real wiring, records every command it sends and compares both ways.
 */
export interface GatewayResources {
  keysTable: ITableV2;
  projectsTable: ITableV2;
  generationsTable: ITableV2;
  countersTable: ITableV2;
  usageQueue: IQueue;
  originSecret: ISecret;
  /** ARN pattern of the provider-key secrets (`<prefix>*`). */
  providerSecretsArn: string;
  /** The usage bucket, for listing a prefix of it. */
  usageBucketArn: string;
  /** ARN pattern of the usage files (`usage/*`) and of the spill of records the queue refused (`spill/*`). */
  usageObjectsArn: string;
  spillObjectsArn: string;
  /** The Bedrock models and inference profiles the route groups may invoke (bedrock-model-arns.ts); none when empty. */
  bedrockModelArns: readonly string[];
}

function allow(grantee: IGrantable, actions: string[], resources: string[], conditions?: Record<string, Record<string, string>>): void {
  grantee.grantPrincipal.addToPrincipalPolicy(new PolicyStatement({ actions, resources, ...(conditions ? { conditions } : {}) }));
}

/**
 * The request path: key lookup (GetItem), project and rate card (Query), balance reservations (UpdateItem
 * on the projects table's `usage` item, except for a group whose requests are free), rate-limit counters (UpdateItem), generation lookup (Query, for
 * the group that serves it), video jobs (Get, Put, conditional Update and Query in the generations table, for the group that serves them),
 * provider keys and the origin secret (GetSecretValue), usage records (SendMessage, and PutObject under
 * spill/ when the queue refuses one), and the Bedrock models the deployment lists (InvokeModel serves
 * InvokeModel and Converse, InvokeModelWithResponseStream their streams), for a group that calls models.
 */
export function grantRouteGroup(grantee: IGrantable, resources: GatewayResources, group: RouteGroup): void {
  allow(grantee, ['dynamodb:GetItem'], [resources.keysTable.tableArn]);
  allow(grantee, group.reservesNoBalance ? ['dynamodb:Query'] : ['dynamodb:Query', 'dynamodb:UpdateItem'], [resources.projectsTable.tableArn]);
  const generationActions = [...(group.looksUpGenerations ? ['dynamodb:Query'] : []), ...(group.keepsVideoJobs ? ['dynamodb:GetItem', 'dynamodb:PutItem', 'dynamodb:UpdateItem'] : [])];
  if (group.keepsVideoJobs && !group.looksUpGenerations) generationActions.push('dynamodb:Query');
  if (generationActions.length > 0) allow(grantee, generationActions, [resources.generationsTable.tableArn]);
  allow(grantee, ['dynamodb:UpdateItem'], [resources.countersTable.tableArn]);
  allow(grantee, ['sqs:SendMessage'], [resources.usageQueue.queueArn]);
  allow(grantee, ['secretsmanager:GetSecretValue'], [resources.originSecret.secretArn, resources.providerSecretsArn]);
  allow(grantee, ['s3:PutObject'], [resources.spillObjectsArn]);
  if (!group.callsNoModels && resources.bedrockModelArns.length > 0) {
    allow(grantee, ['bedrock:InvokeModel', 'bedrock:InvokeModelWithResponseStream'], [...resources.bedrockModelArns]);
  }
}

/**
 * The writer's one transaction per record (Put of the generation, Update of the project's spend) and its
 * usage files (one put per batch and day). Receiving from the queue is the event source mapping's grant
 * (see the stack).
 */
export function grantWriter(grantee: IGrantable, resources: GatewayResources): void {
  allow(grantee, ['dynamodb:PutItem'], [resources.generationsTable.tableArn]);
  allow(grantee, ['dynamodb:UpdateItem'], [resources.projectsTable.tableArn]);
  allow(grantee, ['s3:PutObject'], [resources.usageObjectsArn]);
}

/**
 * The usage compactor: lists a day's usage files (ListBucket, only under usage/), reads them, puts the
 * compacted file and deletes the files it merged (DeleteObjects is authorized as DeleteObject per key).
 */
export function grantUsageCompactor(grantee: IGrantable, resources: GatewayResources, usagePrefix: string): void {
  allow(grantee, ['s3:ListBucket'], [resources.usageBucketArn], { StringLike: { 's3:prefix': `${usagePrefix}*` } });
  allow(grantee, ['s3:GetObject', 's3:PutObject', 's3:DeleteObject'], [resources.usageObjectsArn]);
}

/**
 * Admin commands: keys (create, list and find by project through the index, update, revoke), projects
 * (items, allowlist in batches, model removal, balance), and provider keys, which it writes and never reads.
 */
export function grantAdmin(grantee: IGrantable, resources: GatewayResources): void {
  const keysIndex = `${resources.keysTable.tableArn}/index/${KEYS_BY_PROJECT_INDEX}`;
  allow(grantee, ['dynamodb:GetItem', 'dynamodb:PutItem', 'dynamodb:UpdateItem'], [resources.keysTable.tableArn]);
  allow(grantee, ['dynamodb:Query'], [keysIndex]);
  allow(
    grantee,
    // Scan: `project list` only, an admin listing (no request path scans).
    ['dynamodb:GetItem', 'dynamodb:PutItem', 'dynamodb:UpdateItem', 'dynamodb:DeleteItem', 'dynamodb:BatchWriteItem', 'dynamodb:Query', 'dynamodb:Scan'],
    [resources.projectsTable.tableArn],
  );
  allow(grantee, ['secretsmanager:CreateSecret', 'secretsmanager:PutSecretValue', 'secretsmanager:DeleteSecret'], [resources.providerSecretsArn]);
}
