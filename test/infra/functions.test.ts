import { Match } from 'aws-cdk-lib/assertions';
import { beforeAll, describe, expect, it } from 'vitest';
import { routeGroups } from '../../shared/http/route-groups.ts';
import { MAX_BATCH_MESSAGES } from '../../shared/mcp/read-bridge-message.ts';
import { MAX_UPSTREAM_ANSWER_BYTES } from '../../shared/mcp/upstream-fetch.ts';
import { logicalId, resourcesOfType, synthesizeGateway, type SynthesizedGateway } from './synth-gateway.ts';

let gateway: SynthesizedGateway;
beforeAll(() => {
  gateway = synthesizeGateway();
});

const FUNCTION = 'AWS::Lambda::Function';

function functionProperties(prefix: string): Record<string, unknown> {
  const id = logicalId(gateway.template, FUNCTION, prefix);
  const resource = resourcesOfType(gateway.template, FUNCTION)[id];
  if (!resource) throw new Error(`no function ${prefix}`);
  return resource.Properties;
}

describe('gateway functions', () => {
  it('runs every function on Node.js 24, arm64, from the ESM bundle', () => {
    // Ours: the route groups, writer, admin, usage compactor and console. CDK's own provider function of the
    // console's BucketDeployment is not ours: aws-cdk-lib sets its runtime.
    const functions = Object.entries(resourcesOfType(gateway.template, FUNCTION))
      .filter(([id]) => !id.startsWith('CustomCDKBucketDeployment'))
      .map(([, resource]) => resource);
    expect(functions).toHaveLength(routeGroups.length + 4);
    for (const { Properties } of functions) {
      expect(Properties).toMatchObject({ Runtime: 'nodejs24.x', Architectures: ['arm64'], Handler: 'index.handler' });
      expect(Properties.LoggingConfig).toMatchObject({ LogFormat: 'JSON', LogGroup: expect.anything() });
    }
  });

  it.each(routeGroups.map((group) => group.name))('serves the %s route group through a response-streaming function URL with auth type NONE', (name) => {
    const fn = logicalId(gateway.template, FUNCTION, `RouteGroup${name}`);
    gateway.template.hasResourceProperties('AWS::Lambda::Url', {
      AuthType: 'NONE',
      InvokeMode: 'RESPONSE_STREAM',
      TargetFunctionArn: { 'Fn::GetAtt': [fn, 'Arn'] },
      // No CORS of the URL's own: Lambda would answer preflights itself and rewrite the function's CORS
      // headers; the route group answers both, as the local host does (shared/http/cors.ts).
      Cors: Match.absent(),
    });
    expect(functionProperties(`RouteGroup${name}`)).toMatchObject({ Timeout: 900 });
  });

  it('gives the route groups 512 MB, and the tool bridge room for a full batch of the largest answers it takes', () => {
    for (const group of routeGroups.filter((each) => !each.holdsToolAnswers)) expect(functionProperties(`RouteGroup${group.name}`).MemorySize, group.name).toBe(512);
    // docs/decisions/function-sizing.md: 85 MiB after a cold start, and a body held about three times (text,
    // parsed, re-serialised); a batch may hold MAX_BATCH_MESSAGES answers of MAX_UPSTREAM_ANSWER_BYTES at once.
    const batchPeakMb = 85 + Math.ceil((3 * MAX_BATCH_MESSAGES * MAX_UPSTREAM_ANSWER_BYTES) / 2 ** 20);
    const bridges = routeGroups.filter((each) => each.holdsToolAnswers);
    expect(bridges.map((group) => group.name)).toEqual(['mcp']);
    for (const group of bridges) expect(functionProperties(`RouteGroup${group.name}`).MemorySize).toBeGreaterThanOrEqual(batchPeakMb);
  });

  it('gives function URLs to the route groups and the console API only, the console\'s buffered', () => {
    gateway.template.resourceCountIs('AWS::Lambda::Url', routeGroups.length + 1);
    gateway.template.hasResourceProperties('AWS::Lambda::Url', {
      AuthType: 'NONE',
      InvokeMode: 'BUFFERED',
      TargetFunctionArn: { 'Fn::GetAtt': [logicalId(gateway.template, FUNCTION, 'ConsoleApi'), 'Arn'] },
    });
  });

  it.each(routeGroups.map((group) => group.name))('configures the %s function from the stack: tables, queue, secret prefix, origin secret', (name) => {
    const variables = (functionProperties(`RouteGroup${name}`).Environment as { Variables: Record<string, unknown> }).Variables;
    expect(variables).toMatchObject({
      GATEWAY_KEYS_TABLE: { Ref: logicalId(gateway.template, 'AWS::DynamoDB::GlobalTable', 'TablesKeys') },
      GATEWAY_PROJECTS_TABLE: { Ref: logicalId(gateway.template, 'AWS::DynamoDB::GlobalTable', 'TablesProjects') },
      GATEWAY_GENERATIONS_TABLE: { Ref: logicalId(gateway.template, 'AWS::DynamoDB::GlobalTable', 'TablesGenerations') },
      GATEWAY_COUNTERS_TABLE: { Ref: logicalId(gateway.template, 'AWS::DynamoDB::GlobalTable', 'TablesCounters') },
      GATEWAY_SECRET_PREFIX: 'model-gateway/provider/',
      GATEWAY_USAGE_QUEUE_URL: { Ref: logicalId(gateway.template, 'AWS::SQS::Queue', 'UsageQueueRecords') },
      GATEWAY_ORIGIN_SECRET_ARN: { Ref: logicalId(gateway.template, 'AWS::SecretsManager::Secret', 'OriginSecret') },
      POWERTOOLS_SERVICE_NAME: `gateway-${name}`,
    });
  });

  it('gives the writer the usage bucket and no function URL, and the admin function neither', () => {
    const writer = (functionProperties('Writer').Environment as { Variables: Record<string, unknown> }).Variables;
    expect(writer).toMatchObject({
      GATEWAY_USAGE_ARCHIVE: 's3',
      GATEWAY_USAGE_BUCKET: { Ref: logicalId(gateway.template, 'AWS::S3::Bucket', 'UsageAnalyticsUsage') },
      POWERTOOLS_SERVICE_NAME: 'gateway-writer',
    });
    const admin = (functionProperties('Admin').Environment as { Variables: Record<string, unknown> }).Variables;
    expect(admin).toMatchObject({ GATEWAY_SECRET_PREFIX: 'model-gateway/provider/', POWERTOOLS_SERVICE_NAME: 'gateway-admin' });
    expect(admin).not.toHaveProperty('GATEWAY_ORIGIN_SECRET_ARN');
  });

  it('feeds the writer from the usage queue in batches of up to 100 within 1 s, reporting item failures', () => {
    gateway.template.hasResourceProperties('AWS::Lambda::EventSourceMapping', {
      FunctionName: { Ref: logicalId(gateway.template, FUNCTION, 'Writer') },
      EventSourceArn: { 'Fn::GetAtt': [logicalId(gateway.template, 'AWS::SQS::Queue', 'UsageQueueRecords'), 'Arn'] },
      BatchSize: 100,
      MaximumBatchingWindowInSeconds: 1,
      FunctionResponseTypes: ['ReportBatchItemFailures'],
      ScalingConfig: { MaximumConcurrency: 5 },
    });
  });

  it('compacts the usage files daily at 01:30 UTC with the usage-compactor function, which has the bucket and no table', () => {
    const compactor = logicalId(gateway.template, FUNCTION, 'UsageCompactionCompactor');
    gateway.template.hasResourceProperties('AWS::Events::Rule', {
      ScheduleExpression: 'cron(30 1 * * ? *)',
      State: 'ENABLED',
      Targets: [Match.objectLike({ Arn: { 'Fn::GetAtt': [compactor, 'Arn'] }, RetryPolicy: { MaximumRetryAttempts: 2, MaximumEventAgeInSeconds: 21_600 } })],
    });
    gateway.template.hasResourceProperties('AWS::Lambda::Permission', { Action: 'lambda:InvokeFunction', Principal: 'events.amazonaws.com', FunctionName: { 'Fn::GetAtt': [compactor, 'Arn'] } });
    const variables = (functionProperties('UsageCompactionCompactor').Environment as { Variables: Record<string, unknown> }).Variables;
    expect(variables).toMatchObject({
      GATEWAY_USAGE_ARCHIVE: 's3',
      GATEWAY_USAGE_BUCKET: { Ref: logicalId(gateway.template, 'AWS::S3::Bucket', 'UsageAnalyticsUsage') },
      POWERTOOLS_SERVICE_NAME: 'gateway-usage-compactor',
    });
    expect(Object.keys(variables).filter((name) => name.endsWith('_TABLE'))).toEqual([]);
    expect(functionProperties('UsageCompactionCompactor')).toMatchObject({ Timeout: 900 });
    gateway.template.hasOutput('UsageCompactorFunctionName', { Value: { Ref: compactor }, Description: Match.anyValue() });
  });

  it('sizes functions from the measured defaults: route groups 512 MB, writer and admin 256 MB, compactor 1024 MB, nothing reserved', () => {
    expect(functionProperties('Writer')).toMatchObject({ MemorySize: 256 });
    expect(functionProperties('Admin')).toMatchObject({ MemorySize: 256 });
    expect(functionProperties('UsageCompactionCompactor')).toMatchObject({ MemorySize: 1024 });
    for (const { Properties } of Object.values(resourcesOfType(gateway.template, FUNCTION))) {
      expect(Properties).not.toHaveProperty('ReservedConcurrentExecutions');
    }
  });

  it('prints the outputs an operator needs', () => {
    for (const output of ['GatewayUrl', 'AdminFunctionName', 'UsageQueueUrl', 'DeadLetterQueueUrl', 'UsageDatabase', 'AthenaWorkGroup', 'DistributionId', 'UsageBucketName']) {
      gateway.template.hasOutput(output, Match.objectLike({ Value: Match.anyValue() }));
    }
    gateway.template.hasOutput('DistributionId', { Value: { Ref: logicalId(gateway.template, 'AWS::CloudFront::Distribution', 'Distribution') }, Description: Match.anyValue() });
  });

  it('keeps each function\'s logs in its own log group with a retention', () => {
    // Each function's, and the console deployment's.
    gateway.template.resourceCountIs('AWS::Logs::LogGroup', routeGroups.length + 5);
    gateway.template.allResourcesProperties('AWS::Logs::LogGroup', { RetentionInDays: 90 });
  });

  it('puts no secret value in any function environment', () => {
    for (const { Properties } of Object.values(resourcesOfType(gateway.template, FUNCTION))) {
      const names = Object.keys((Properties.Environment as { Variables: Record<string, unknown> }).Variables);
      expect(names.filter((name) => /KEY$|PASSWORD|TOKEN/.test(name) && name !== 'GATEWAY_KEYS_TABLE')).toEqual([]);
    }
    gateway.template.hasOutput('AdminFunctionName', { Value: { Ref: logicalId(gateway.template, FUNCTION, 'Admin') } });
    gateway.template.hasOutput('GatewayUrl', Match.objectLike({ Value: Match.anyValue() }));
  });
});
