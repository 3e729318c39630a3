import { Duration, RemovalPolicy, Stack } from 'aws-cdk-lib';
import { CfnNamedQuery, CfnWorkGroup } from 'aws-cdk-lib/aws-athena';
import { CfnDatabase, CfnTable } from 'aws-cdk-lib/aws-glue';
import { PolicyStatement, type IGrantable } from 'aws-cdk-lib/aws-iam';
import { BlockPublicAccess, Bucket, BucketEncryption, ObjectOwnership, StorageClass } from 'aws-cdk-lib/aws-s3';
import { Construct } from 'constructs';
import { namedUsageQueries, USAGE_PREFIX, USAGE_TABLE_NAME, usageTableInput } from '../../shared/usage-writer/usage-table.ts';

/** The workgroup's result location under the results bucket. */
const ATHENA_RESULTS_PREFIX = 'athena/';

export interface UsageAnalyticsProps {
  /** The Glue database; one deployment per account and region may use the default name. */
  databaseName: string;
  /** Days before usage files move to S3 Standard-IA: accountants read recent months most. */
  infrequentAccessAfterDays: number;
}

/**
 * Where accountants read usage: the writer's date-partitioned files in S3, the Glue table over them
 * (shared/usage-writer/usage-table.ts, partition projection), and an Athena workgroup with the named queries.
 */
export class UsageAnalytics extends Construct {
  readonly usageBucket: Bucket;
  readonly resultsBucket: Bucket;
  readonly accessLogsBucket: Bucket;
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
        resultConfiguration: {
          outputLocation: `s3://${this.resultsBucket.bucketName}/${ATHENA_RESULTS_PREFIX}`,
          encryptionConfiguration: { encryptionOption: 'SSE_S3' },
        },
      },
    });
    for (const query of namedUsageQueries) {
      const namedQuery = new CfnNamedQuery(this, `Query-${query.name}`, {
        name: query.name,
        description: query.description,
        database: props.databaseName,
        queryString: query.sql,
        workGroup: this.workGroup.ref,
      });
      namedQuery.addResourceDependency(table);
    }
  }

  /** The writer puts usage files under the usage prefix, and nothing else: no reads, no deletes. */
  grantUsageFileWrites(grantee: IGrantable): void {
    grantee.grantPrincipal.addToPrincipalPolicy(
      new PolicyStatement({ actions: ['s3:PutObject'], resources: [this.usageObjectsArn] }),
    );
  }

  get usageObjectsArn(): string {
    return this.usageBucket.arnForObjects(`${USAGE_PREFIX}*`);
  }

  /**
   * Lets a principal run Athena queries on the usage table in this workgroup: the console's usage pages.
   * Reads usage files, writes and reads query results; nothing else.
   */
  grantUsageQueries(grantee: IGrantable): void {
    const stack = Stack.of(this);
    const principal = grantee.grantPrincipal;
    principal.addToPrincipalPolicy(
      new PolicyStatement({
        actions: ['athena:StartQueryExecution', 'athena:GetQueryExecution', 'athena:GetQueryResults'],
        resources: [stack.formatArn({ service: 'athena', resource: 'workgroup', resourceName: this.workGroup.ref })],
      }),
    );
    principal.addToPrincipalPolicy(
      new PolicyStatement({
        actions: ['glue:GetDatabase', 'glue:GetTable', 'glue:GetPartitions'],
        resources: [
          stack.formatArn({ service: 'glue', resource: 'catalog' }),
          stack.formatArn({ service: 'glue', resource: 'database', resourceName: this.databaseName }),
          stack.formatArn({ service: 'glue', resource: 'table', resourceName: `${this.databaseName}/${USAGE_TABLE_NAME}` }),
        ],
      }),
    );
    principal.addToPrincipalPolicy(new PolicyStatement({ actions: ['s3:GetObject'], resources: [this.usageObjectsArn] }));
    principal.addToPrincipalPolicy(
      new PolicyStatement({ actions: ['s3:ListBucket', 's3:GetBucketLocation'], resources: [this.usageBucket.bucketArn, this.resultsBucket.bucketArn] }),
    );
    principal.addToPrincipalPolicy(
      new PolicyStatement({
        actions: ['s3:PutObject', 's3:GetObject', 's3:AbortMultipartUpload', 's3:ListMultipartUploadParts'],
        resources: [this.queryResultsArn],
      }),
    );
  }

  /** Where the workgroup writes query results. */
  get queryResultsArn(): string {
    return this.resultsBucket.arnForObjects(`${ATHENA_RESULTS_PREFIX}*`);
  }
}
