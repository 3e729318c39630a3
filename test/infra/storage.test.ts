import { readFileSync } from 'node:fs';
import { Match } from 'aws-cdk-lib/assertions';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  countersTableDefinition,
  generationsTableDefinition,
  keysTableDefinition,
  projectsTableDefinition,
} from '../../shared/adapters/aws/table-definitions.ts';
import { athenaQueryDescription, namedUsageQueries } from '../../shared/usage-writer/named-usage-queries.ts';
import { PARQUET_SERDE, USAGE_DATABASE_NAME, USAGE_TABLE_NAME, usageTableColumns } from '../../shared/usage-writer/usage-table.ts';
import { README_FILE } from '../../tools/cli/cli-reference-files.ts';
import { logicalId, resourcesOfType, SYNTHESIS_TIMEOUT_MS, synthesizeGateway, type SynthesizedGateway } from './synth-gateway.ts';

let gateway: SynthesizedGateway;
beforeAll(() => {
  gateway = synthesizeGateway();
});

const TABLE = 'AWS::DynamoDB::GlobalTable';
const tableProperties = (name: string) => resourcesOfType(gateway.template, TABLE)[logicalId(gateway.template, TABLE, `Tables${name}`)]?.Properties;

describe('DynamoDB tables', () => {
  it.each([
    ['Keys', keysTableDefinition('keys')],
    ['Projects', projectsTableDefinition('projects')],
    ['Generations', generationsTableDefinition('generations')],
    ['Counters', countersTableDefinition('counters')],
  ])('builds the %s table from its shared definition, on demand', (name, definition) => {
    const properties = tableProperties(name);
    expect(properties).toMatchObject({ BillingMode: 'PAY_PER_REQUEST', KeySchema: definition.KeySchema });
    expect(new Set(properties?.AttributeDefinitions as unknown[])).toEqual(new Set(definition.AttributeDefinitions));
  });

  it('indexes keys by project', () => {
    expect(tableProperties('Keys')?.GlobalSecondaryIndexes).toEqual([
      { IndexName: 'by-project', KeySchema: keysTableDefinition('k').GlobalSecondaryIndexes?.[0]?.KeySchema, Projection: { ProjectionType: 'ALL' } },
    ]);
  });

  it('expires generations and counters by TTL on expiresAt', () => {
    for (const name of ['Generations', 'Counters']) {
      expect(tableProperties(name)?.TimeToLiveSpecification).toEqual({ AttributeName: 'expiresAt', Enabled: true });
    }
    expect(tableProperties('Keys')).not.toHaveProperty('TimeToLiveSpecification');
  });

  it('turns on point-in-time recovery and deletion protection, and keeps tables when the stack goes', () => {
    const tables = gateway.template.findResources(TABLE);
    expect(Object.keys(tables)).toHaveLength(4);
    for (const table of Object.values(tables)) {
      expect(table.DeletionPolicy).toBe('Retain');
      expect(table.Properties.Replicas).toEqual([
        expect.objectContaining({ PointInTimeRecoverySpecification: { PointInTimeRecoveryEnabled: true }, DeletionProtectionEnabled: true }),
      ]);
    }
  });

  it('can turn deletion protection off for a disposable deployment', () => {
    const disposable = synthesizeGateway({ deletionProtection: false });
    for (const table of Object.values(disposable.template.findResources(TABLE))) {
      expect(table.Properties.Replicas[0].DeletionProtectionEnabled).toBe(false);
    }
  }, SYNTHESIS_TIMEOUT_MS);
});

describe('usage queue', () => {
  it('parks a message in the DLQ after five receives and lets the writer run six times over before redelivery', () => {
    const dlq = logicalId(gateway.template, 'AWS::SQS::Queue', 'UsageQueueDeadLetters');
    gateway.template.hasResourceProperties('AWS::SQS::Queue', {
      RedrivePolicy: { deadLetterTargetArn: { 'Fn::GetAtt': [dlq, 'Arn'] }, maxReceiveCount: 5 },
      VisibilityTimeout: 360,
      SqsManagedSseEnabled: true,
    });
    gateway.template.hasResourceProperties('AWS::Lambda::Function', { Timeout: 60, Environment: { Variables: Match.objectLike({ GATEWAY_USAGE_ARCHIVE: 's3' }) } });
  });

  it('alarms on any message in the DLQ and on an old backlog', () => {
    const dlqName = { 'Fn::GetAtt': [logicalId(gateway.template, 'AWS::SQS::Queue', 'UsageQueueDeadLetters'), 'QueueName'] };
    const queueName = { 'Fn::GetAtt': [logicalId(gateway.template, 'AWS::SQS::Queue', 'UsageQueueRecords'), 'QueueName'] };
    gateway.template.hasResourceProperties('AWS::CloudWatch::Alarm', {
      MetricName: 'ApproximateNumberOfMessagesVisible',
      Dimensions: [{ Name: 'QueueName', Value: dlqName }],
      Threshold: 0,
      ComparisonOperator: 'GreaterThanThreshold',
    });
    gateway.template.hasResourceProperties('AWS::CloudWatch::Alarm', {
      MetricName: 'ApproximateAgeOfOldestMessage',
      Dimensions: [{ Name: 'QueueName', Value: queueName }],
      Threshold: 600,
      ComparisonOperator: 'GreaterThanThreshold',
    });
  });
});

describe('usage files and Athena', () => {
  it('keeps usage files encrypted, private, TLS-only, versioned, with access logs and a move to infrequent access', () => {
    const bucketId = logicalId(gateway.template, 'AWS::S3::Bucket', 'UsageAnalyticsUsage');
    const bucket = gateway.template.findResources('AWS::S3::Bucket')[bucketId];
    expect(bucket?.DeletionPolicy).toBe('Retain');
    expect(bucket?.Properties).toMatchObject({
      BucketEncryption: { ServerSideEncryptionConfiguration: [{ ServerSideEncryptionByDefault: { SSEAlgorithm: 'AES256' } }] },
      PublicAccessBlockConfiguration: { BlockPublicAcls: true, BlockPublicPolicy: true, IgnorePublicAcls: true, RestrictPublicBuckets: true },
      VersioningConfiguration: { Status: 'Enabled' },
      LoggingConfiguration: { DestinationBucketName: { Ref: logicalId(gateway.template, 'AWS::S3::Bucket', 'UsageAnalyticsAccessLogs') } },
      LifecycleConfiguration: {
        Rules: [
          expect.objectContaining({ Prefix: 'usage/', Transitions: [{ StorageClass: 'STANDARD_IA', TransitionInDays: 90 }] }),
          expect.objectContaining({ Prefix: 'spill/', NoncurrentVersionExpiration: { NoncurrentDays: 30 } }),
        ],
      },
    });
    gateway.template.hasResourceProperties('AWS::S3::BucketPolicy', {
      Bucket: { Ref: bucketId },
      PolicyDocument: { Statement: Match.arrayWith([Match.objectLike({ Effect: 'Deny', Condition: { Bool: { 'aws:SecureTransport': 'false' } } })]) },
    });
  });

  it('describes the usage files with a Glue table over Parquet using partition projection over the bucket', () => {
    gateway.template.hasResourceProperties('AWS::Glue::Database', { DatabaseInput: { Name: USAGE_DATABASE_NAME } });
    const table = Object.values(resourcesOfType(gateway.template, 'AWS::Glue::Table'))[0]?.Properties as {
      DatabaseName: string;
      TableInput: { Name: string; Parameters: Record<string, unknown>; StorageDescriptor: { Columns: unknown[]; SerdeInfo: { SerializationLibrary: string } } };
    };
    expect(table.TableInput.StorageDescriptor.SerdeInfo.SerializationLibrary).toBe(PARQUET_SERDE);
    expect(table.TableInput.Parameters.classification).toBe('parquet');
    expect(table.DatabaseName).toBe(USAGE_DATABASE_NAME);
    expect(table.TableInput.Name).toBe(USAGE_TABLE_NAME);
    expect(table.TableInput.StorageDescriptor.Columns).toEqual(usageTableColumns.map(({ name, type }) => ({ Name: name, Type: type })));
    expect(table.TableInput.Parameters).toMatchObject({ 'projection.enabled': 'true', 'projection.dt.type': 'date', 'projection.dt.range': expect.stringMatching(/,NOW$/) });
    const bucketId = logicalId(gateway.template, 'AWS::S3::Bucket', 'UsageAnalyticsUsage');
    expect(JSON.stringify(table.TableInput.Parameters['storage.location.template'])).toContain(bucketId);
  });

  it('runs queries in a workgroup that enforces an encrypted result location', () => {
    const results = logicalId(gateway.template, 'AWS::S3::Bucket', 'UsageAnalyticsQueryResults');
    const workGroup = Object.values(resourcesOfType(gateway.template, 'AWS::Athena::WorkGroup'))[0]?.Properties as {
      WorkGroupConfiguration: { EnforceWorkGroupConfiguration: boolean; BytesScannedCutoffPerQuery: number; ResultConfiguration: { OutputLocation: unknown; EncryptionConfiguration: unknown } };
    };
    expect(workGroup.WorkGroupConfiguration.EnforceWorkGroupConfiguration).toBe(true);
    expect(JSON.stringify(workGroup.WorkGroupConfiguration.ResultConfiguration.OutputLocation)).toContain(results);
    expect(workGroup.WorkGroupConfiguration.ResultConfiguration.EncryptionConfiguration).toEqual({ EncryptionOption: 'SSE_S3' });
    // A query that would scan more than 10 GB is cancelled.
    expect(workGroup.WorkGroupConfiguration).toMatchObject({ BytesScannedCutoffPerQuery: 10 * 1024 ** 3 });
    gateway.template.hasOutput('AthenaWorkGroup', { Value: { Ref: logicalId(gateway.template, 'AWS::Athena::WorkGroup', 'UsageAnalyticsWorkGroup') } });
    gateway.template.hasOutput('UsageBucketName', { Value: { Ref: logicalId(gateway.template, 'AWS::S3::Bucket', 'UsageAnalyticsUsage') } });
  });

  it('defines one named query per shared usage query, with the same SQL, filtered to the days given as parameters', () => {
    const workGroup = { Ref: logicalId(gateway.template, 'AWS::Athena::WorkGroup', 'UsageAnalyticsWorkGroup') };
    gateway.template.resourceCountIs('AWS::Athena::NamedQuery', namedUsageQueries.length);
    for (const query of namedUsageQueries) {
      gateway.template.hasResourceProperties('AWS::Athena::NamedQuery', {
        Name: query.name,
        QueryString: query.sql,
        Description: athenaQueryDescription(query),
        Database: USAGE_DATABASE_NAME,
        WorkGroup: workGroup,
      });
      expect(query.sql, query.name).toMatch(/WHERE dt BETWEEN \? AND \?/);
    }
  });
});

describe('what the stack keeps when it is destroyed', () => {
  /** How the README's "Tearing down" names each type of resource the stack retains. */
  const namedInReadme: Record<string, string> = {
    'AWS::DynamoDB::GlobalTable': 'tables',
    'AWS::Cognito::UserPool': 'user pool',
    'AWS::S3::Bucket': 'buckets',
    'AWS::Logs::LogGroup': 'log groups',
  };

  it("is each named in the README's tear-down, which a reader deletes by hand", () => {
    const readme = readFileSync(README_FILE, 'utf8');
    const tearDown = readme.slice(readme.indexOf('**Tearing down.**'), readme.indexOf('## Configuration'));
    const retained = new Set(
      Object.values(gateway.template.toJSON().Resources as Record<string, { Type: string; DeletionPolicy?: string }>)
        .filter((resource) => resource.DeletionPolicy === 'Retain')
        .map((resource) => resource.Type),
    );
    expect([...retained].sort()).toEqual(Object.keys(namedInReadme).sort());
    for (const type of retained) expect(tearDown, type).toContain(namedInReadme[type]);
    expect(tearDown).toContain('"deletionProtection": false');
  });
});
