import { Duration, RemovalPolicy } from 'aws-cdk-lib';
import {
  AllowedMethods,
  CachePolicy,
  Function as CloudFrontFunction,
  FunctionCode,
  FunctionEventType,
  FunctionRuntime,
  HeadersFrameOption,
  HeadersReferrerPolicy,
  OriginRequestPolicy,
  ResponseHeadersPolicy,
  ViewerProtocolPolicy,
  type BehaviorOptions,
  type Distribution,
} from 'aws-cdk-lib/aws-cloudfront';
import { FunctionUrlOrigin, S3BucketOrigin } from 'aws-cdk-lib/aws-cloudfront-origins';
import { Role, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import { FunctionUrlAuthType, InvokeMode, type FunctionUrl } from 'aws-cdk-lib/aws-lambda';
import { LogGroup, type RetentionDays } from 'aws-cdk-lib/aws-logs';
import { BlockPublicAccess, Bucket, BucketEncryption, ObjectOwnership, type IBucket } from 'aws-cdk-lib/aws-s3';
import { BucketDeployment, CacheControl, Source } from 'aws-cdk-lib/aws-s3-deployment';
import type { ISecret } from 'aws-cdk-lib/aws-secretsmanager';
import { Construct } from 'constructs';
import { CONSOLE_API_PREFIX } from '../../shared/console/console-api.ts';
import { CONSOLE_PATH, CONSOLE_SITE_CONFIG_FILE, consoleContentSecurityPolicy, type ConsoleSiteConfig } from '../../shared/console/console-site.ts';
import { ORIGIN_SECRET_HEADER } from '../../shared/lambda/origin-secret.ts';
import { CONSOLE_SITE_CONFIG_KEY } from '../../shared/adapters/aws/s3-console-site-config.ts';
import { consoleAssets } from '../bundling/console-assets.ts';
import { GatewayFunction, type FunctionSizing } from './gateway-function.ts';
import type { ConsoleSignIn } from './console-sign-in.ts';

export interface ConsoleSiteProps extends FunctionSizing {
  signIn: ConsoleSignIn;
  originSecret: ISecret;
  /** The header value CloudFront sends (the route groups' origins send the same: originSecretHeaderValue). */
  originSecretHeaderValue: string;
  originReadTimeout: Duration;
  originKeepaliveTimeout: Duration;
  logRetention: RetentionDays;
  accessLogsBucket: IBucket;
  /** The console function's environment: tables, secret prefix, usage queries (the stack's). */
  environment: Record<string, string>;
}

/** `/console` → `/console/`; a directory → its index.html (S3 has no directory index behind CloudFront). */
const INDEX_REWRITE = `function handler(event) {
  var request = event.request;
  if (request.uri === '${CONSOLE_PATH}') {
    return { statusCode: 301, statusDescription: 'Moved Permanently', headers: { location: { value: '${CONSOLE_PATH}/' } } };
  }
  if (request.uri.endsWith('/')) request.uri += 'index.html';
  return request;
}`;

/**
 * The console in AWS (docs/decisions/console.md): static files in a private bucket read by CloudFront
 * through origin access control, with a strict CSP added at the edge; its API on a function of its own
 * (the admin commands' code and grants, plus usage queries) behind a function URL that, like the route
 * groups', only answers requests carrying the origin secret.
 */
export class ConsoleSite extends Construct {
  readonly bucket: Bucket;
  readonly function: GatewayFunction;
  readonly url: FunctionUrl;
  /** CloudFront behaviours, the API's first (CloudFront tries patterns in order). */
  readonly behaviors: Record<string, BehaviorOptions>;

  constructor(scope: Construct, id: string, props: ConsoleSiteProps) {
    super(scope, id);
    this.bucket = new Bucket(this, 'Files', {
      encryption: BucketEncryption.S3_MANAGED,
      blockPublicAccess: BlockPublicAccess.BLOCK_ALL,
      enforceSSL: true,
      objectOwnership: ObjectOwnership.BUCKET_OWNER_ENFORCED,
      serverAccessLogsBucket: props.accessLogsBucket,
      serverAccessLogsPrefix: 'console/',
      // Built files only, written again by each deployment and deleted with the stack.
      removalPolicy: RemovalPolicy.DESTROY,
    });
    this.function = new GatewayFunction(this, 'Api', {
      name: 'console',
      entry: 'functions/console/handler.ts',
      description: 'Model gateway console API (/console/api/*)',
      logRetention: props.logRetention,
      memorySize: props.memorySize,
      timeout: props.timeout,
      ...(props.reservedConcurrency !== undefined ? { reservedConcurrency: props.reservedConcurrency } : {}),
      environment: {
        ...props.environment,
        GATEWAY_CONSOLE_SITE_BUCKET: this.bucket.bucketName,
        GATEWAY_ORIGIN_SECRET_ARN: props.originSecret.secretArn,
      },
    });
    // Its grants are the stack's (infra/permissions/function-permissions.ts, grantConsole).
    // Auth NONE, as the route groups: the origin secret and the console's own sign-in guard it.
    this.url = this.function.function.addFunctionUrl({ authType: FunctionUrlAuthType.NONE, invokeMode: InvokeMode.BUFFERED });

    const api: BehaviorOptions = {
      origin: new FunctionUrlOrigin(this.url, {
        readTimeout: props.originReadTimeout,
        keepaliveTimeout: props.originKeepaliveTimeout,
        customHeaders: { [ORIGIN_SECRET_HEADER]: props.originSecretHeaderValue },
      }),
      viewerProtocolPolicy: ViewerProtocolPolicy.HTTPS_ONLY,
      allowedMethods: AllowedMethods.ALLOW_ALL,
      cachePolicy: CachePolicy.CACHING_DISABLED,
      originRequestPolicy: OriginRequestPolicy.ALL_VIEWER_EXCEPT_HOST_HEADER,
      compress: true,
    };
    const files: BehaviorOptions = {
      origin: S3BucketOrigin.withOriginAccessControl(this.bucket),
      viewerProtocolPolicy: ViewerProtocolPolicy.REDIRECT_TO_HTTPS,
      allowedMethods: AllowedMethods.ALLOW_GET_HEAD,
      cachePolicy: CachePolicy.CACHING_OPTIMIZED,
      responseHeadersPolicy: new ResponseHeadersPolicy(this, 'SecurityHeaders', {
        comment: 'Model gateway console: strict CSP, no framing, no sniffing, no referrer',
        securityHeadersBehavior: {
          contentSecurityPolicy: { contentSecurityPolicy: consoleContentSecurityPolicy(props.signIn.signInOrigin), override: true },
          contentTypeOptions: { override: true },
          frameOptions: { frameOption: HeadersFrameOption.DENY, override: true },
          referrerPolicy: { referrerPolicy: HeadersReferrerPolicy.NO_REFERRER, override: true },
          strictTransportSecurity: { accessControlMaxAge: Duration.days(365), includeSubdomains: true, override: true },
        },
      }),
      functionAssociations: [
        {
          eventType: FunctionEventType.VIEWER_REQUEST,
          function: new CloudFrontFunction(this, 'IndexRewrite', { code: FunctionCode.fromInline(INDEX_REWRITE), runtime: FunctionRuntime.JS_2_0 }),
        },
      ],
    };
    this.behaviors = { [`${CONSOLE_API_PREFIX}/*`]: api, [`${CONSOLE_PATH}*`]: files };
  }

  /** config.json among the files: the function reads it, and nothing else, from the bucket. */
  get siteConfigObjectArn(): string {
    return this.bucket.arnForObjects(CONSOLE_SITE_CONFIG_KEY);
  }

  /**
   * Deploys the built files and config.json (the sign-in settings the page and the API share) once the
   * distribution exists, then invalidates the console's paths.
   */
  publish(distribution: Distribution, siteConfig: ConsoleSiteConfig, logRetention: RetentionDays): { deployment: BucketDeployment; role: Role } {
    // Retained with the stack's other log groups (test/infra/alarms.test.ts): what each deployment copied.
    const logGroup = new LogGroup(this, 'DeploymentLogs', { retention: logRetention, removalPolicy: RemovalPolicy.RETAIN });
    // Its own role (CDK's default uses the managed AWSLambdaBasicExecutionRole), writing to its own log group.
    const role = new Role(this, 'DeploymentRole', { assumedBy: new ServicePrincipal('lambda.amazonaws.com') });
    logGroup.grantWrite(role);
    const deployment = new BucketDeployment(this, 'Deployment', {
      sources: [consoleAssets(), Source.jsonData(CONSOLE_SITE_CONFIG_FILE, siteConfig)],
      destinationBucket: this.bucket,
      destinationKeyPrefix: `${CONSOLE_PATH.slice(1)}/`,
      // Small files, revalidated on each visit (ETag), so a deployment shows at once.
      cacheControl: [CacheControl.noCache()],
      distribution,
      distributionPaths: [`${CONSOLE_PATH}*`],
      role,
      logGroup,
      memoryLimit: 256,
      // The files go with the stack, so the bucket can too.
      retainOnDelete: false,
    });
    return { deployment, role };
  }
}
