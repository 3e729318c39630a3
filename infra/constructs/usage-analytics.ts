import { Duration, RemovalPolicy, Stack } from 'aws-cdk-lib';
import { CfnNamedQuery, CfnWorkGroup } from 'aws-cdk-lib/aws-athena';
import { CfnDatabase, CfnTable } from 'aws-cdk-lib/aws-glue';
import { BlockPublicAccess, Bucket, BucketEncryption, ObjectOwnership, StorageClass } from 'aws-cdk-lib/aws-s3';
import { Construct } from 'constructs';
import { USAGE_SPILL_PREFIX } from '../../shared/adapters/aws/s3-usage-spill.ts';
import { athenaQueryDescription, namedUsageQueries } from '../../shared/usage-writer/named-usage-queries.ts';
import { USAGE_PREFIX } from '../../shared/usage-writer/usage-file-keys.ts';
import { usageTableInput } from '../../shared/usage-writer/usage-table.ts';

export interface UsageAnalyticsProps {
  /** The Glue database; one deployment per account and region may use the default name. */
  databaseName: string;
  /** Days before usage files move to S3 Standard-IA: accountants read recent months most. */
  infrequentAccessAfterDays: number;
  /** Athena cancels a query of the workgroup that would scan more than this. */
  bytesScannedCutoffGb: number;
  /** Days CloudFront's access logs are kept. */
  cloudFrontLogDays: number;
}

/**
 * Where accountants read usage: the writer's date-partitioned files in S3, the Glue table over them
 * (shared/usage-writer/usage-table.ts, partition projection), and an Athena workgroup with the named queries.
 */
export class UsageAnalytics extends Construct {
  readonly usageBucket: Bucket;
  readonly resultsBucket: Bucket;
  readonly accessLogsBucket: Bucket;
  /** CloudFront standard logs: the legacy log delivery needs object ACLs, so a bucket of their own. */
  readonly cloudFrontLogsBucket: Bucket;
  readonly workGroup: CfnWorkGroup;
  readonly databaseName: string;

  constructor(scope: Construct, id: string, props: UsageAnalyticsProps) {
    super(scope, id);
    const secured = {
      encryption: BucketEncryption.S3_MANAGED,
      blockPublicAccess: BlockPublicAccess.BLOCK_ALL,
      enforceSSL: true,
      objectOwnership: ObjectOwnership.BUCKET_OWNER_ENFORCED,
    };
    this.accessLogsBucket = new Bucket(this, 'AccessLogs', {
      ...secured,
      lifecycleRules: [{ expiration: Duration.days(365) }],
      removalPolicy: RemovalPolicy.RETAIN,
    });
    this.cloudFrontLogsBucket = new Bucket(this, 'CloudFrontLogs', {
      ...secured,
      objectOwnership: ObjectOwnership.BUCKET_OWNER_PREFERRED,
      serverAccessLogsBucket: this.accessLogsBucket,
      serverAccessLogsPrefix: 'cloudfront-logs/',
      lifecycleRules: [{ expiration: Duration.days(props.cloudFrontLogDays) }],
      removalPolicy: RemovalPolicy.RETAIN,
    });
    // The billing record of the organisation: versioned, kept when the stack goes.
    this.usageBucket = new Bucket(this, 'Usage', {
      ...secured,
      versioned: true,
      serverAccessLogsBucket: this.accessLogsBucket,
      serverAccessLogsPrefix: 'usage/',
      lifecycleRules: [
        {
          prefix: USAGE_PREFIX,
          transitions: [{ storageClass: StorageClass.INFREQUENT_ACCESS, transitionAfter: Duration.days(props.infrequentAccessAfterDays) }],
          noncurrentVersionExpiration: Duration.days(30),
        },
        // A replayed record's spill object is deleted; its old versions need not stay.
        { prefix: USAGE_SPILL_PREFIX, noncurrentVersionExpiration: Duration.days(30) },
      ],
      removalPolicy: RemovalPolicy.RETAIN,
    });
    this.resultsBucket = new Bucket(this, 'QueryResults', {
      ...secured,
      serverAccessLogsBucket: this.accessLogsBucket,
      serverAccessLogsPrefix: 'athena-results/',
      lifecycleRules: [{ expiration: Duration.days(30) }],
      // CloudFormation cannot delete a bucket with objects in it: results expire instead.
      removalPolicy: RemovalPolicy.RETAIN,
    });

    this.databaseName = props.databaseName;
    const account = Stack.of(this).account;
    const database = new CfnDatabase(this, 'Database', {
      catalogId: account,
      databaseInput: { name: props.databaseName, description: 'Model gateway usage records' },
    });
    const table = new CfnTable(this, 'UsageTable', {
      catalogId: account,
      databaseName: props.databaseName,
      tableInput: usageTableInput(this.usageBucket.bucketName),
    });
    table.addResourceDependency(database);

    this.workGroup = new CfnWorkGroup(this, 'WorkGroup', {
      name: `${Stack.of(this).stackName}-usage`,
      description: 'Model gateway usage queries',
      // Deleting the stack deletes the workgroup's named queries with it.
      recursiveDeleteOption: true,
      workGroupConfiguration: {
        enforceWorkGroupConfiguration: true,
        publishCloudWatchMetricsEnabled: true,
        // A query that would scan more is cancelled (and billed for what it read): a forgotten `dt` filter
        // over years of usage cannot run up a bill. Setting `athenaBytesScannedCutoffGb`.
        bytesScannedCutoffPerQuery: props.bytesScannedCutoffGb * 1024 ** 3,
        resultConfiguration: {
          outputLocation: `s3://${this.resultsBucket.bucketName}/athena/`,
          encryptionConfiguration: { encryptionOption: 'SSE_S3' },
        },
      },
    });
    for (const query of namedUsageQueries) {
      const namedQuery = new CfnNamedQuery(this, `Query-${query.name}`, {
        name: query.name,
        description: athenaQueryDescription(query),
        database: props.databaseName,
        queryString: query.sql,
        workGroup: this.workGroup.ref,
      });
      namedQuery.addResourceDependency(table);
    }
  }

  get usageObjectsArn(): string {
    return this.usageBucket.arnForObjects(`${USAGE_PREFIX}*`);
  }

  /** Usage records SQS refused, put there by the route groups and drained by `npm run replay`. */
  get spillObjectsArn(): string {
    return this.usageBucket.arnForObjects(`${USAGE_SPILL_PREFIX}*`);
  }
}
