import { PolicyStatement, type IGrantable } from 'aws-cdk-lib/aws-iam';
import type { ITableV2 } from 'aws-cdk-lib/aws-dynamodb';
import type { IQueue } from 'aws-cdk-lib/aws-sqs';
import type { ISecret } from 'aws-cdk-lib/aws-secretsmanager';
import { KEYS_BY_PROJECT_INDEX } from '../../shared/adapters/aws/table-definitions.ts';
import type { RouteGroup } from '../../shared/http/route-groups.ts';

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

/** What only the console function uses: its sign-in settings file and the Athena workgroup of its usage pages. */
export interface ConsoleResources {
  /** config.json among the console's files: the user pool and app client its tokens come from. */
  siteConfigObjectArn: string;
  athenaWorkGroupArn: string;
  /** The Glue catalog, database and usage table the usage queries read. */
  usageTableCatalogArns: string[];
  usageBucketArn: string;
  queryResultsBucketArn: string;
  /** Where the workgroup writes query results (`athena/*` of the results bucket). */
  queryResultsArn: string;
}

function allow(grantee: IGrantable, actions: string[], resources: string[], conditions?: Record<string, Record<string, string>>): void {
  grantee.grantPrincipal.addToPrincipalPolicy(new PolicyStatement({ actions, resources, ...(conditions ? { conditions } : {}) }));
}

/**
 * The request path: key lookup (GetItem), project and rate card (Query), balance reservations (UpdateItem
 * on the projects table's `usage` item, except for a group whose requests are free), spend and balance
 * (GetItem of that item, for the group that serves the key and credit checks), rate-limit counters (UpdateItem), generation lookup (Query, for
 * the group that serves it), video jobs (Get, Put, conditional Update and Query in the generations table, for the group that serves them),
 * provider keys and the origin secret (GetSecretValue), usage records (SendMessage, and PutObject under
 * spill/ when the queue refuses one), and the Bedrock models the deployment lists (InvokeModel serves
 * InvokeModel and Converse, InvokeModelWithResponseStream their streams), for a group that calls models.
 */
export function grantRouteGroup(grantee: IGrantable, resources: GatewayResources, group: RouteGroup): void {
  allow(grantee, ['dynamodb:GetItem'], [resources.keysTable.tableArn]);
  const projectActions = ['dynamodb:Query', ...(group.reportsCredits ? ['dynamodb:GetItem'] : []), ...(group.reservesNoBalance ? [] : ['dynamodb:UpdateItem'])];
  allow(grantee, projectActions, [resources.projectsTable.tableArn]);
  const generationActions = [...(group.looksUpGenerations ? ['dynamodb:Query'] : []), ...(group.keepsVideoJobs ? ['dynamodb:GetItem', 'dynamodb:UpdateItem'] : [])];
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
  // Keys' last use (docs/decisions/key-last-used.md): find the key by id through the index, then update that one attribute.
  allow(grantee, ['dynamodb:Query'], [`${resources.keysTable.tableArn}/index/${KEYS_BY_PROJECT_INDEX}`]);
  allow(grantee, ['dynamodb:UpdateItem'], [resources.keysTable.tableArn]);
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

/**
 * What Athena does with the caller's credentials while it runs a query (forward access): read the usage
 * table's definition from Glue and its files from S3, and write the results where the workgroup says. The
 * console's code sends none of these itself; it cannot query without them.
 */
export function athenaQueryAccess(site: ConsoleResources, resources: GatewayResources): Array<{ actions: string[]; resources: string[] }> {
  return [
    { actions: ['glue:GetDatabase', 'glue:GetTable', 'glue:GetPartitions'], resources: site.usageTableCatalogArns },
    { actions: ['s3:GetObject'], resources: [resources.usageObjectsArn] },
    { actions: ['s3:ListBucket', 's3:GetBucketLocation'], resources: [site.usageBucketArn, site.queryResultsBucketArn] },
    { actions: ['s3:PutObject', 's3:GetObject', 's3:AbortMultipartUpload', 's3:ListMultipartUploadParts'], resources: [site.queryResultsArn] },
  ];
}

/**
 * The console's API: the admin commands its routes run (project get, models, provider keys, members, keys,
 * the audit trail; never `project list`, `project update`, `provider remove` or the rate card), its sign-in
 * settings, the origin secret, and usage queries in the stack's Athena workgroup.
 */
export function grantConsole(grantee: IGrantable, resources: GatewayResources, site: ConsoleResources): void {
  const keysIndex = `${resources.keysTable.tableArn}/index/${KEYS_BY_PROJECT_INDEX}`;
  allow(grantee, ['dynamodb:GetItem', 'dynamodb:PutItem', 'dynamodb:UpdateItem'], [resources.keysTable.tableArn]);
  allow(grantee, ['dynamodb:Query'], [keysIndex]);
  // The admin function's, less Scan (no `project list`) and UpdateItem (balances: no `project update`).
  allow(grantee, ['dynamodb:GetItem', 'dynamodb:PutItem', 'dynamodb:DeleteItem', 'dynamodb:BatchWriteItem', 'dynamodb:Query'], [resources.projectsTable.tableArn]);
  allow(grantee, ['secretsmanager:CreateSecret', 'secretsmanager:PutSecretValue'], [resources.providerSecretsArn]);
  allow(grantee, ['secretsmanager:GetSecretValue'], [resources.originSecret.secretArn]);
  allow(grantee, ['s3:GetObject'], [site.siteConfigObjectArn]);
  allow(grantee, ['athena:StartQueryExecution', 'athena:GetQueryExecution', 'athena:GetQueryResults'], [site.athenaWorkGroupArn]);
  for (const statement of athenaQueryAccess(site, resources)) allow(grantee, statement.actions, statement.resources);
}
