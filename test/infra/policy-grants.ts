import type { AwsCall } from '../support/aws-call-recorder.ts';
import { actionsOf, resourcesOf, statementsOfFunction } from './iam-statements.ts';
import { iamPatternMatches, type SymbolicResources } from './symbolic-resources.ts';
import { logicalId, type SynthesizedGateway } from './synth-gateway.ts';

/** One action on one resource that a function's synthesized policy allows, with the statement's conditions. */
export interface Grant {
  action: string;
  resource: string;
  conditions?: Record<string, Record<string, string>>;
}

/** Every action-resource pair the policy of the function whose logical id starts with `prefix` allows. */
export function grantsOfFunction(gateway: SynthesizedGateway, symbols: SymbolicResources, prefix: string): Grant[] {
  return statementsOfFunction(gateway.template, prefix).flatMap((statement) =>
    actionsOf(statement).flatMap((action) =>
      resourcesOf(statement).map((resource) => ({ action, resource: symbols.resolve(resource), ...(statement.Condition ? { conditions: statement.Condition } : {}) })),
    ),
  );
}

/** The grant's conditions hold for the call: each key is set by the request and matches (StringLike, StringEquals). */
function conditionsHold(grant: Grant, call: AwsCall): boolean {
  return Object.entries(grant.conditions ?? {}).every(([operator, entries]) =>
    Object.entries(entries).every(([key, expected]) => {
      const value = call.context?.[key];
      if (value === undefined) return false;
      if (operator === 'StringLike') return iamPatternMatches(expected, value);
      if (operator === 'StringEquals') return value === expected;
      throw new Error(`No evaluation of the condition operator ${operator}: add it here`);
    }),
  );
}

export function allows(grant: Grant, call: AwsCall): boolean {
  return iamPatternMatches(grant.action, call.action) && iamPatternMatches(grant.resource, call.resource) && conditionsHold(grant, call);
}

/**
 * What Athena does with the caller's credentials for a query the function started (athenaQueryAccess):
 * the usage table's definition from Glue, its files, the results under the workgroup's prefix.
 */
function athenaActsWith(gateway: SynthesizedGateway, calls: readonly AwsCall[], grant: Grant): boolean {
  if (!calls.some((call) => call.action === 'athena:StartQueryExecution')) return false;
  const bucket = (name: string) => `arn:aws:s3:::${logicalId(gateway.template, 'AWS::S3::Bucket', name).toLowerCase()}`;
  const onBehalf = [
    ...['glue:GetDatabase', 'glue:GetTable', 'glue:GetPartitions'].map((action) => ({ action, resource: /^arn:aws:glue:/ })),
    { action: 's3:GetObject', resource: new RegExp(`^${bucket('UsageAnalyticsUsage')}/usage/\\*$`) },
    ...['s3:ListBucket', 's3:GetBucketLocation'].flatMap((action) => [
      { action, resource: new RegExp(`^${bucket('UsageAnalyticsUsage')}$`) },
      { action, resource: new RegExp(`^${bucket('UsageAnalyticsQueryResults')}$`) },
    ]),
    ...['s3:PutObject', 's3:GetObject', 's3:AbortMultipartUpload', 's3:ListMultipartUploadParts'].map((action) => ({
      action,
      resource: new RegExp(`^${bucket('UsageAnalyticsQueryResults')}/athena/\\*$`),
    })),
  ];
  return onBehalf.some((allowed) => allowed.action === grant.action && allowed.resource.test(grant.resource));
}

/** Granted for the Lambda service acting with the function's role (given the calls its code made), not for the code. */
export function grantedToTheLambdaService(gateway: SynthesizedGateway, symbols: SymbolicResources, prefix: string, grant: Grant, calls: readonly AwsCall[]): boolean {
  if (grant.action.startsWith('logs:')) return true; // the runtime writes the function's logs
  if (athenaActsWith(gateway, calls, grant)) return true;
  const queue = symbols.resolve({ 'Fn::GetAtt': [logicalId(gateway.template, 'AWS::SQS::Queue', 'UsageQueueRecords'), 'Arn'] });
  const pollerActions = ['sqs:ReceiveMessage', 'sqs:ChangeMessageVisibility', 'sqs:GetQueueUrl', 'sqs:DeleteMessage', 'sqs:GetQueueAttributes'];
  // The event source mapping polls the queue and deletes what the writer processed.
  return prefix === 'Writer' && grant.resource === queue && pollerActions.includes(grant.action);
}
