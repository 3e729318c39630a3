import { CfnOutput, Duration, Stack, type StackProps } from 'aws-cdk-lib';
import { SnsAction } from 'aws-cdk-lib/aws-cloudwatch-actions';
import { PolicyStatement } from 'aws-cdk-lib/aws-iam';
import { FunctionUrlAuthType, InvokeMode } from 'aws-cdk-lib/aws-lambda';
import { SqsEventSource } from 'aws-cdk-lib/aws-lambda-event-sources';
import { RetentionDays } from 'aws-cdk-lib/aws-logs';
import { Secret } from 'aws-cdk-lib/aws-secretsmanager';
import { Topic } from 'aws-cdk-lib/aws-sns';
import type { Construct } from 'constructs';
import { KEYS_BY_PROJECT_INDEX } from '../shared/adapters/aws/table-definitions.ts';
import { USAGE_DATABASE_NAME } from '../shared/usage-writer/usage-table.ts';
import { ConsoleSignIn } from './constructs/console-sign-in.ts';
import { ConsoleSite } from './constructs/console-site.ts';
import { GatewayDistribution, type CustomDomain } from './constructs/gateway-distribution.ts';
import { defaultSizing, GatewayFunction, type FunctionSizing } from './constructs/gateway-function.ts';
import { GatewayTables } from './constructs/gateway-tables.ts';
import { DEFAULT_MANAGED_RULE_GROUPS, GatewayWebAcl } from './constructs/gateway-web-acl.ts';
import { grantProviderSecretsManage, grantProviderSecretsRead, providerSecretsArn } from './constructs/provider-secret-grants.ts';
import { UsageAnalytics } from './constructs/usage-analytics.ts';
import { UsageQueue } from './constructs/usage-queue.ts';
import { acknowledgeAcceptedFindings } from './nag-suppressions.ts';
import { routeGroups as defaultRouteGroups, validateRouteGroups, type RouteGroup } from './route-groups.ts';

export interface GatewayStackProps extends StackProps {
  /** Defaults to infra/route-groups.ts. */
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
  routeGroupSizing?: Partial<FunctionSizing>;
  writerSizing?: Partial<FunctionSizing>;
  adminSizing?: Partial<FunctionSizing>;
  consoleSizing?: Partial<FunctionSizing>;
  /** The console's hosted sign-in pages, `<prefix>.auth.<region>.amazoncognito.com`; default `<stack>-console-<account>`. */
  consoleDomainPrefix?: string;
  /** Default 60 s, the largest value every account accepts (docs/decisions/infrastructure.md). */
  originReadTimeout?: Duration;
  /** Where provider keys live in Secrets Manager; default `model-gateway/provider/`. */
  secretPrefix?: string;
  usageDatabaseName?: string;
  /** SNS topic that the usage alarms notify. */
  alarmTopicArn?: string;
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
      ...(props.alarmTopicArn ? { alarmAction: new SnsAction(Topic.fromTopicArn(this, 'AlarmTopic', props.alarmTopicArn)) } : {}),
    });
    const analytics = new UsageAnalytics(this, 'UsageAnalytics', {
      databaseName: props.usageDatabaseName ?? USAGE_DATABASE_NAME,
      infrequentAccessAfterDays: 90,
    });
    const originSecret = new Secret(this, 'OriginSecret', {
      description: 'Model gateway: header value CloudFront adds to origin requests; functions refuse requests without it.',
      generateSecretString: { passwordLength: 48, excludePunctuation: true },
    });

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
        ...defaultSizing.routeGroup,
        ...props.routeGroupSizing,
        environment: {
          ...tableEnvironment,
          GATEWAY_SECRET_PREFIX: secretPrefix,
          GATEWAY_USAGE_SINK: 'sqs',
          GATEWAY_USAGE_QUEUE_URL: usageQueue.queue.queueUrl,
          GATEWAY_ORIGIN_SECRET_ARN: originSecret.secretArn,
        },
      });
      const fn = routeFunction.function;
      tables.keys.grantReadData(fn);
      tables.projects.grantReadData(fn);
      tables.generations.grantReadData(fn);
      tables.counters.grantReadWriteData(fn);
      usageQueue.queue.grantSendMessages(fn);
      originSecret.grantRead(fn);
      grantProviderSecretsRead(fn, this, secretPrefix);
      // Auth NONE: CloudFront's origin secret and the gateway's project keys guard it (docs/decisions/origin-secret.md).
      const url = fn.addFunctionUrl({ authType: FunctionUrlAuthType.NONE, invokeMode: InvokeMode.RESPONSE_STREAM });
      return { group, function: fn, role: routeFunction.role, url };
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
    tables.generations.grantWriteData(writer);
    tables.projects.grantWriteData(writer);
    // Keys' last use (docs/decisions/console.md): find the key by id, then update that one attribute.
    writer.addToRolePolicy(new PolicyStatement({ actions: ['dynamodb:Query'], resources: [`${tables.keys.tableArn}/index/${KEYS_BY_PROJECT_INDEX}`] }));
    writer.addToRolePolicy(new PolicyStatement({ actions: ['dynamodb:UpdateItem'], resources: [tables.keys.tableArn] }));
    analytics.grantUsageFileWrites(writer);
    writer.addEventSource(
      new SqsEventSource(usageQueue.queue, { batchSize: 10, maxBatchingWindow: Duration.seconds(1), reportBatchItemFailures: true }),
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
    tables.keys.grantReadWriteData(admin);
    tables.projects.grantReadWriteData(admin);
    grantProviderSecretsManage(admin, this, secretPrefix);

    // The console (docs/decisions/console.md): Cognito sign-in, static files in S3, its API on a function of its own.
    const consoleSignIn = new ConsoleSignIn(this, 'ConsoleSignIn', {
      deletionProtection: props.deletionProtection ?? true,
      ...(props.consoleDomainPrefix ? { domainPrefix: props.consoleDomainPrefix } : {}),
    });
    const consoleSite = new ConsoleSite(this, 'Console', {
      signIn: consoleSignIn,
      originSecret,
      originReadTimeout: props.originReadTimeout ?? Duration.seconds(60),
      originKeepaliveTimeout: Duration.seconds(60),
      logRetention,
      accessLogsBucket: analytics.accessLogsBucket,
      ...defaultSizing.console,
      ...props.consoleSizing,
      environment: {
        ...tableEnvironment,
        GATEWAY_SECRET_PREFIX: secretPrefix,
        GATEWAY_USAGE_QUERY: 'athena',
        GATEWAY_ATHENA_WORKGROUP: analytics.workGroup.ref,
        GATEWAY_USAGE_DATABASE: analytics.databaseName,
      },
    });
    // The admin commands' grants (the console runs the same commands), plus usage queries.
    const consoleApi = consoleSite.function.function;
    tables.keys.grantReadWriteData(consoleApi);
    tables.projects.grantReadWriteData(consoleApi);
    grantProviderSecretsManage(consoleApi, this, secretPrefix);
    analytics.grantUsageQueries(consoleApi);

    if (props.waf && props.webAclArn) throw new Error('Give either waf (create a web ACL) or webAclArn (attach one), not both.');
    const webAclArn = props.waf
      ? new GatewayWebAcl(this, 'WebAcl', { managedRuleGroups: props.waf.managedRuleGroups ?? DEFAULT_MANAGED_RULE_GROUPS }).webAcl.attrArn
      : props.webAclArn;
    const distribution = new GatewayDistribution(this, 'Distribution', {
      routes,
      originSecret,
      originReadTimeout: props.originReadTimeout ?? Duration.seconds(60),
      originKeepaliveTimeout: Duration.seconds(60),
      ...(props.customDomain ? { customDomain: props.customDomain } : {}),
      ...(webAclArn ? { webAclArn } : {}),
      additionalBehaviors: consoleSite.behaviors,
    });
    const consoleUrl = `${distribution.url}/console/`;
    const consoleClient = consoleSignIn.addConsoleClient([consoleUrl]);
    const consolePublication = consoleSite.publish(
      distribution.distribution,
      { signIn: 'cognito', region: this.region, userPoolId: consoleSignIn.userPool.userPoolId, clientId: consoleClient.userPoolClientId, signInOrigin: consoleSignIn.signInOrigin },
      logRetention,
    );

    new CfnOutput(this, 'GatewayUrl', { value: distribution.url, description: 'Base URL for clients (OpenAI SDKs: <url>/v1)' });
    new CfnOutput(this, 'AdminFunctionName', { value: admin.functionName, description: 'export GATEWAY_ADMIN_FUNCTION_NAME=<this>' });
    new CfnOutput(this, 'AthenaWorkGroup', { value: analytics.workGroup.ref });
    new CfnOutput(this, 'UsageBucketName', { value: analytics.usageBucket.bucketName });
    new CfnOutput(this, 'ConsoleUrl', { value: consoleUrl, description: 'The console; sign in with a user of ConsoleUserPoolId' });
    new CfnOutput(this, 'ConsoleUserPoolId', { value: consoleSignIn.userPool.userPoolId, description: 'Add console users here (aws cognito-idp admin-create-user)' });

    acknowledgeAcceptedFindings(this, {
      routeGroupRoles: routes.map((route) => route.role),
      writerRole: writerFunction.role,
      adminRole: adminFunction.role,
      consoleRole: consoleSite.function.role,
      consoleDeployment: consolePublication.deployment,
      consoleDeploymentRole: consolePublication.role,
      consoleFilesBucketArn: consoleSite.bucket.bucketArn,
      consoleUserPool: consoleSignIn.userPool,
      queryResultsArn: analytics.queryResultsArn,
      originSecret,
      distribution: distribution.distribution,
      keysTable: tables.keys,
      providerSecretsArn: providerSecretsArn(this, secretPrefix),
      usageObjectsArn: analytics.usageObjectsArn,
      hasCustomDomain: props.customDomain !== undefined,
      hasWebAcl: webAclArn !== undefined,
    });
  }
}
