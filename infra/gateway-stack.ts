import { CfnOutput, Duration, Stack, type StackProps } from 'aws-cdk-lib';
import { FunctionUrlAuthType, InvokeMode } from 'aws-cdk-lib/aws-lambda';
import { SqsEventSource } from 'aws-cdk-lib/aws-lambda-event-sources';
import { RetentionDays } from 'aws-cdk-lib/aws-logs';
import { Secret } from 'aws-cdk-lib/aws-secretsmanager';
import type { Construct } from 'constructs';
import { USAGE_PREFIX } from '../shared/usage-writer/usage-file-keys.ts';
import { USAGE_DATABASE_NAME } from '../shared/usage-writer/usage-table.ts';
import { ConsoleSignIn } from './constructs/console-sign-in.ts';
import { ConsoleSite } from './constructs/console-site.ts';
import { GatewayAlarms } from './constructs/gateway-alarms.ts';
import { GatewayDashboard } from './constructs/gateway-dashboard.ts';
import { GatewayDistribution, originSecretHeaderValue, type CustomDomain } from './constructs/gateway-distribution.ts';
import { defaultSizing, GatewayFunction, type FunctionSizing } from './constructs/gateway-function.ts';
import { GatewayTables } from './constructs/gateway-tables.ts';
import { DEFAULT_MANAGED_RULE_GROUPS, GatewayWebAcl } from './constructs/gateway-web-acl.ts';
import { providerSecretsArn } from './permissions/provider-secrets-arn.ts';
import { bedrockModelArns, type BedrockAccess } from './permissions/bedrock-model-arns.ts';
import { UsageAnalytics } from './constructs/usage-analytics.ts';
import { UsageCompaction } from './constructs/usage-compaction.ts';
import { UsageQueue } from './constructs/usage-queue.ts';
import { acknowledgeAcceptedFindings } from './nag-suppressions.ts';
import { grantAdmin, grantConsole, grantRouteGroup, grantUsageCompactor, grantWriter, type GatewayResources } from './permissions/function-permissions.ts';
import { routeGroups as defaultRouteGroups, validateRouteGroups, type RouteGroup } from '../shared/http/route-groups.ts';

export interface GatewayStackProps extends StackProps {
  /** Defaults to shared/http/route-groups.ts. */
  routeGroups?: readonly RouteGroup[];
  /** "A deployment may be assigned its own gateway URL." */
  customDomain?: CustomDomain;
  /** Create a web ACL (us-east-1 only) with these AWS managed rule groups, body rules set to count. */
  waf?: { managedRuleGroups?: readonly string[] };
  /** Or attach an existing CloudFront web ACL; its body rules must exempt the gateway (see the docs). */
  webAclArn?: string;
  /** DynamoDB deletion protection; default on. */
  deletionProtection?: boolean;
  logRetention?: RetentionDays;
  /** Every route group's but the tool bridge's, which holds a batch of upstream answers (`toolBridgeSizing`). */
  routeGroupSizing?: Partial<FunctionSizing>;
  toolBridgeSizing?: Partial<FunctionSizing>;
  writerSizing?: Partial<FunctionSizing>;
  adminSizing?: Partial<FunctionSizing>;
  usageCompactorSizing?: Partial<FunctionSizing>;
  consoleSizing?: Partial<FunctionSizing>;
  /** The console's hosted sign-in pages, `<prefix>.auth.<region>.amazoncognito.com`; default `<stack>-console-<account>`. */
  consoleDomainPrefix?: string;
  /** Default 60 s, the largest value every account accepts (docs/decisions/infrastructure.md). */
  originReadTimeout?: Duration;
  /** Where provider keys live in Secrets Manager; default `model-gateway/provider/`. */
  secretPrefix?: string;
  usageDatabaseName?: string;
  /** The origin secret's version id CloudFront sends (after a rotation); unset: the version current at the first deployment. */
  originSecretVersion?: string;
  /** Per-query scan limit of the Athena workgroup, in GB; default 10 (about $0.05 a query). */
  athenaBytesScannedCutoffGb?: number;
  /** Addresses subscribed to the stack's alarm topic, which every alarm notifies. */
  alarmEmails?: readonly string[];
  /** At most this many writer invocations at once (the SQS event source's maximum concurrency); default 5. */
  writerMaxConcurrency?: number;
  /** The Bedrock models and inference profiles the route groups may invoke; none when absent. */
  bedrock?: BedrockAccess;
}

/** The whole gateway (../shared/DESIGN.md, "Deployment shape"): `npx cdk deploy` ships it. */
export class GatewayStack extends Stack {
  constructor(scope: Construct, id: string, props: GatewayStackProps = {}) {
    super(scope, id, props);
    const groups = props.routeGroups ?? defaultRouteGroups;
    validateRouteGroups(groups);
    const secretPrefix = props.secretPrefix ?? 'model-gateway/provider/';
    const logRetention = props.logRetention ?? RetentionDays.THREE_MONTHS;
    const writerSizing = { ...defaultSizing.writer, ...props.writerSizing };

    const tables = new GatewayTables(this, 'Tables', { deletionProtection: props.deletionProtection ?? true });
    const usageQueue = new UsageQueue(this, 'UsageQueue', {
      consumerTimeout: writerSizing.timeout,
      maxMessageAge: Duration.minutes(10),
    });
    const analytics = new UsageAnalytics(this, 'UsageAnalytics', {
      databaseName: props.usageDatabaseName ?? USAGE_DATABASE_NAME,
      infrequentAccessAfterDays: 90,
      cloudFrontLogDays: 90,
      bytesScannedCutoffGb: props.athenaBytesScannedCutoffGb ?? 10,
    });
    const originSecret = new Secret(this, 'OriginSecret', {
      description: 'Model gateway: header value CloudFront adds to origin requests; functions refuse requests without it.',
      generateSecretString: { passwordLength: 48, excludePunctuation: true },
    });

    const resources: GatewayResources = {
      keysTable: tables.keys,
      projectsTable: tables.projects,
      generationsTable: tables.generations,
      countersTable: tables.counters,
      usageQueue: usageQueue.queue,
      originSecret,
      providerSecretsArn: providerSecretsArn(this, secretPrefix),
      usageBucketArn: analytics.usageBucket.bucketArn,
      usageObjectsArn: analytics.usageObjectsArn,
      spillObjectsArn: analytics.spillObjectsArn,
      bedrockModelArns: props.bedrock ? bedrockModelArns(this, props.bedrock) : [],
    };
    const tableEnvironment = {
      GATEWAY_KEYS_TABLE: tables.keys.tableName,
      GATEWAY_PROJECTS_TABLE: tables.projects.tableName,
      GATEWAY_GENERATIONS_TABLE: tables.generations.tableName,
      GATEWAY_COUNTERS_TABLE: tables.counters.tableName,
    };

    const routes = groups.map((group) => {
      const routeFunction = new GatewayFunction(this, `RouteGroup-${group.name}`, {
        name: group.name,
        entry: group.entry,
        description: `Model gateway route group ${group.name}`,
        logRetention,
        ...(group.holdsToolAnswers ? { ...defaultSizing.toolBridge, ...props.toolBridgeSizing } : { ...defaultSizing.routeGroup, ...props.routeGroupSizing }),
        environment: {
          ...tableEnvironment,
          GATEWAY_SECRET_PREFIX: secretPrefix,
          GATEWAY_USAGE_QUEUE_URL: usageQueue.queue.queueUrl,
          GATEWAY_USAGE_SPILL_BUCKET: analytics.usageBucket.bucketName,
          GATEWAY_ORIGIN_SECRET_ARN: originSecret.secretArn,
          GATEWAY_ORIGIN_READ_TIMEOUT_MS: String((props.originReadTimeout ?? Duration.seconds(60)).toMilliseconds()),
        },
      });
      const fn = routeFunction.function;
      grantRouteGroup(fn, resources, group);
      // Auth NONE: CloudFront's origin secret and the gateway's project keys guard it (docs/decisions/origin-secret.md).
      const url = fn.addFunctionUrl({ authType: FunctionUrlAuthType.NONE, invokeMode: InvokeMode.RESPONSE_STREAM });
      return { group, function: fn, role: routeFunction.role, logGroup: routeFunction.logGroup, url };
    });

    const writerFunction = new GatewayFunction(this, 'Writer', {
      name: 'writer',
      entry: 'functions/writer/handler.ts',
      description: 'Model gateway usage writer: SQS batches to the ledger and the usage files',
      logRetention,
      ...writerSizing,
      environment: {
        ...tableEnvironment,
        GATEWAY_USAGE_ARCHIVE: 's3',
        GATEWAY_USAGE_BUCKET: analytics.usageBucket.bucketName,
      },
    });
    const writer = writerFunction.function;
    grantWriter(writer, resources);
    writer.addEventSource(
      new SqsEventSource(usageQueue.queue, {
        // The ledger writes a batch in one or two transactions and the batch one usage file per day, so
        // larger batches mean fewer writes and fewer, larger files; the window bounds how late a record is.
        batchSize: 100,
        maxBatchingWindow: Duration.seconds(1),
        reportBatchItemFailures: true,
        // Bounds the writes on the tables and the bucket when a backlog drains; excess batches wait in the queue.
        maxConcurrency: props.writerMaxConcurrency ?? 5,
      }),
    );

    const adminFunction = new GatewayFunction(this, 'Admin', {
      name: 'admin',
      entry: 'functions/admin/handler.ts',
      description: 'Model gateway admin commands (invoked by the admin CLI)',
      logRetention,
      ...defaultSizing.admin,
      ...props.adminSizing,
      environment: { ...tableEnvironment, GATEWAY_SECRET_PREFIX: secretPrefix },
    });
    const admin = adminFunction.function;
    grantAdmin(admin, resources);

    const compaction = new UsageCompaction(this, 'UsageCompaction', {
      bucketName: analytics.usageBucket.bucketName,
      sizing: { ...defaultSizing.usageCompactor, ...props.usageCompactorSizing },
      logRetention,
    });
    const compactor = compaction.function.function;
    grantUsageCompactor(compactor, resources, USAGE_PREFIX);
    // The console (docs/decisions/console.md): Cognito sign-in, static files in S3, its API on a function of its own.
    const consoleSignIn = new ConsoleSignIn(this, 'ConsoleSignIn', {
      deletionProtection: props.deletionProtection ?? true,
      ...(props.consoleDomainPrefix ? { domainPrefix: props.consoleDomainPrefix } : {}),
    });
    const consoleSite = new ConsoleSite(this, 'Console', {
      signIn: consoleSignIn,
      originSecret,
      originSecretHeaderValue: originSecretHeaderValue(originSecret, props.originSecretVersion),
      originReadTimeout: props.originReadTimeout ?? Duration.seconds(60),
      originKeepaliveTimeout: Duration.seconds(60),
      logRetention,
      accessLogsBucket: analytics.accessLogsBucket,
      ...defaultSizing.console,
      ...props.consoleSizing,
      environment: {
        ...tableEnvironment,
        GATEWAY_SECRET_PREFIX: secretPrefix,
        GATEWAY_ATHENA_WORKGROUP: analytics.workGroup.ref,
        GATEWAY_USAGE_DATABASE: analytics.databaseName,
      },
    });
    const consoleApi = consoleSite.function.function;
    grantConsole(consoleApi, resources, {
      siteConfigObjectArn: consoleSite.siteConfigObjectArn,
      athenaWorkGroupArn: analytics.workGroupArn,
      usageTableCatalogArns: analytics.usageTableCatalogArns,
      usageBucketArn: analytics.usageBucket.bucketArn,
      queryResultsBucketArn: analytics.resultsBucket.bucketArn,
      queryResultsArn: analytics.queryResultsArn,
    });

    if (props.waf && props.webAclArn) throw new Error('Give either waf (create a web ACL) or webAclArn (attach one), not both.');
    const webAclArn = props.waf
      ? new GatewayWebAcl(this, 'WebAcl', { managedRuleGroups: props.waf.managedRuleGroups ?? DEFAULT_MANAGED_RULE_GROUPS }).webAcl.attrArn
      : props.webAclArn;
    const distribution = new GatewayDistribution(this, 'Distribution', {
      routes,
      originSecret,
      ...(props.originSecretVersion ? { originSecretVersion: props.originSecretVersion } : {}),
      originReadTimeout: props.originReadTimeout ?? Duration.seconds(60),
      originKeepaliveTimeout: Duration.seconds(60),
      ...(props.customDomain ? { customDomain: props.customDomain } : {}),
      ...(webAclArn ? { webAclArn } : {}),
      logBucket: analytics.cloudFrontLogsBucket,
      additionalBehaviors: consoleSite.behaviors,
    });
    const consoleUrl = `${distribution.url}/console/`;
    const consoleClient = consoleSignIn.addConsoleClient([consoleUrl]);
    const consolePublication = consoleSite.publish(
      distribution.distribution,
      { signIn: 'cognito', region: this.region, userPoolId: consoleSignIn.userPool.userPoolId, clientId: consoleClient.userPoolClientId, signInOrigin: consoleSignIn.signInOrigin },
      logRetention,
    );

    const alarms = new GatewayAlarms(this, 'Alarms', {
      functions: [
        ...routes.map((route) => ({ name: route.group.name, function: route.function, logGroup: route.logGroup, servesUrl: true })),
        { name: 'writer', function: writer, logGroup: writerFunction.logGroup, servesUrl: false },
        { name: 'admin', function: admin, logGroup: adminFunction.logGroup, servesUrl: false },
        { name: 'usageCompactor', function: compactor, logGroup: compaction.function.logGroup, servesUrl: false },
        { name: 'console', function: consoleApi, logGroup: consoleSite.function.logGroup, servesUrl: false },
      ],
      emails: props.alarmEmails ?? [],
      otherAlarms: [usageQueue.deadLetterAlarm, usageQueue.backlogAlarm],
    });
    const dashboard = new GatewayDashboard(this, 'Dashboard', {
      routeGroups: routes.map((route) => ({ name: route.group.name, function: route.function })),
      functions: [
        ...routes.map((route) => ({ name: route.group.name, function: route.function })),
        { name: 'writer', function: writer },
        { name: 'admin', function: admin },
        { name: 'usage compactor', function: compactor },
        { name: 'console', function: consoleApi },
      ],
      usageQueue: usageQueue.queue,
      deadLetterQueue: usageQueue.deadLetterQueue,
      spilledRecords: alarms.spilledRecords,
      unsentRecords: alarms.unsentRecords,
      alarms: [...alarms.alarms, usageQueue.deadLetterAlarm, usageQueue.backlogAlarm],
    });

    new CfnOutput(this, 'GatewayUrl', { value: distribution.url, description: 'Base URL for clients (OpenAI SDKs: <url>/v1)' });
    new CfnOutput(this, 'AdminFunctionName', { value: admin.functionName, description: 'export GATEWAY_ADMIN_FUNCTION_NAME=<this>' });
    new CfnOutput(this, 'AthenaWorkGroup', { value: analytics.workGroup.ref, description: 'Athena workgroup with the named usage queries' });
    new CfnOutput(this, 'UsageDatabase', { value: analytics.databaseName, description: 'Glue database of the usage_records table' });
    new CfnOutput(this, 'UsageBucketName', { value: analytics.usageBucket.bucketName });
    new CfnOutput(this, 'UsageCompactorFunctionName', {
      value: compactor.functionName,
      description: 'Compacts days of usage files; invoke with {"from":"YYYY-MM-DD","to":"YYYY-MM-DD"} for older days',
    });
    new CfnOutput(this, 'UsageQueueUrl', { value: usageQueue.queue.queueUrl, description: 'Usage records on their way to the writer' });
    new CfnOutput(this, 'DeadLetterQueueUrl', { value: usageQueue.deadLetterQueue.queueUrl, description: 'Usage records the writer failed five times' });
    new CfnOutput(this, 'OriginSecretArn', { value: originSecret.secretArn, description: 'npm run rotate-origin-secret -- --secret-arn <this>' });
    new CfnOutput(this, 'AlarmTopicArn', { value: alarms.topic.topicArn, description: 'Every alarm notifies this topic; subscribe more with aws sns subscribe' });
    new CfnOutput(this, 'DashboardName', { value: dashboard.dashboard.dashboardName, description: 'CloudWatch dashboard' });
    new CfnOutput(this, 'ConsoleUrl', { value: consoleUrl, description: 'The console; sign in with a user of ConsoleUserPoolId' });
    new CfnOutput(this, 'ConsoleUserPoolId', { value: consoleSignIn.userPool.userPoolId, description: 'Add console users here (aws cognito-idp admin-create-user)' });
    new CfnOutput(this, 'DistributionId', { value: distribution.distribution.distributionId, description: 'CloudFront distribution' });

    acknowledgeAcceptedFindings(this, {
      routeGroupRoles: routes.map((route) => route.role),
      writerRole: writerFunction.role,
      adminRole: adminFunction.role,
      usageCompactorRole: compaction.function.role,
      consoleRole: consoleSite.function.role,
      consoleDeployment: consolePublication.deployment,
      consoleDeploymentRole: consolePublication.role,
      consoleFilesBucketArn: consoleSite.bucket.bucketArn,
      consoleUserPool: consoleSignIn.userPool,
      queryResultsArn: analytics.queryResultsArn,
      originSecret,
      distribution: distribution.distribution,
      providerSecretsArn: providerSecretsArn(this, secretPrefix),
      usageObjectsArn: analytics.usageObjectsArn,
      spillObjectsArn: analytics.spillObjectsArn,
      hasCustomDomain: props.customDomain !== undefined,
      hasWebAcl: webAclArn !== undefined,
      bedrockModelArns: resources.bedrockModelArns.filter((arn) => arn.includes('*')),
    });
  }
}
