import { SecretValue, type Duration } from 'aws-cdk-lib';
import { Certificate } from 'aws-cdk-lib/aws-certificatemanager';
import {
  AllowedMethods,
  CachePolicy,
  Distribution,
  HttpVersion,
  OriginRequestPolicy,
  SecurityPolicyProtocol,
  ViewerProtocolPolicy,
  type BehaviorOptions,
} from 'aws-cdk-lib/aws-cloudfront';
import { FunctionUrlOrigin } from 'aws-cdk-lib/aws-cloudfront-origins';
import type { IFunctionUrl } from 'aws-cdk-lib/aws-lambda';
import type { IBucket } from 'aws-cdk-lib/aws-s3';
import type { ISecret } from 'aws-cdk-lib/aws-secretsmanager';
import { Construct } from 'constructs';
import { ORIGIN_SECRET_HEADER } from '../../shared/lambda/origin-secret.ts';
import type { RouteGroup } from '../../shared/http/route-groups.ts';

export interface CustomDomain {
  domainName: string;
  /** An ACM certificate in us-east-1 (CloudFront's region) covering the domain. */
  certificateArn: string;
}

export interface GatewayDistributionProps {
  routes: ReadonlyArray<{ group: RouteGroup; url: IFunctionUrl }>;
  originSecret: ISecret;
  /** A version id pins the header to that version, so a rotation changes the template and CloudFront follows. */
  originSecretVersion?: string;
  /** How long CloudFront waits for the first byte, and between bytes, from a function. */
  originReadTimeout: Duration;
  originKeepaliveTimeout: Duration;
  customDomain?: CustomDomain;
  webAclArn?: string;
  /** CloudFront standard logging: one line per viewer request (time, edge, status, path, client IP, no headers). */
  logBucket: IBucket;
  /** Behaviours of other parts of the site (the console), tried before the route groups' patterns. */
  additionalBehaviors?: Record<string, BehaviorOptions>;
}

/**
 * The origin-secret header value every origin of the distribution sends: the pinned version after a
 * rotation, else the secret's current value. A dynamic reference ({{resolve:secretsmanager:…}}):
 * CloudFormation resolves it, the template never holds it.
 */
export function originSecretHeaderValue(originSecret: ISecret, version: string | undefined): string {
  const secretValue = version ? SecretValue.secretsManager(originSecret.secretArn, { versionId: version }) : originSecret.secretValue;
  return secretValue.unsafeUnwrap();
}

/**
 * The gateway's one public endpoint: a behaviour per route-group path pattern, each to that group's
 * function URL, nothing cached, every method, every viewer header but Host forwarded (Authorization,
 * anthropic-version, X-Request-ID, the attribution headers…), and the origin secret added to each
 * origin request.
 */
export class GatewayDistribution extends Construct {
  readonly distribution: Distribution;
  /** `https://…` without a trailing slash. */
  readonly url: string;

  constructor(scope: Construct, id: string, props: GatewayDistributionProps) {
    super(scope, id);
    const customHeaders = { [ORIGIN_SECRET_HEADER]: originSecretHeaderValue(props.originSecret, props.originSecretVersion) };
    const behaviorFor = (url: IFunctionUrl): BehaviorOptions => ({
      origin: new FunctionUrlOrigin(url, {
        readTimeout: props.originReadTimeout,
        keepaliveTimeout: props.originKeepaliveTimeout,
        customHeaders,
      }),
      viewerProtocolPolicy: ViewerProtocolPolicy.HTTPS_ONLY,
      allowedMethods: AllowedMethods.ALLOW_ALL,
      cachePolicy: CachePolicy.CACHING_DISABLED,
      // Forwarding all viewer headers is the one way to pass Authorization without caching on it.
      originRequestPolicy: OriginRequestPolicy.ALL_VIEWER_EXCEPT_HOST_HEADER,
      compress: false,
    });

    const defaultRoute = props.routes.find(({ group }) => group.paths === 'default');
    if (!defaultRoute) throw new Error('No route group serves the default path.');
    const additionalBehaviors: Record<string, BehaviorOptions> = { ...props.additionalBehaviors };
    for (const { group, url } of props.routes) {
      if (group.paths === 'default') continue;
      const behavior = behaviorFor(url);
      for (const pattern of group.paths) additionalBehaviors[pattern] = behavior;
    }

    const domain = props.customDomain;
    this.distribution = new Distribution(this, 'Distribution', {
      comment: 'Model gateway',
      defaultBehavior: behaviorFor(defaultRoute.url),
      additionalBehaviors,
      httpVersion: HttpVersion.HTTP2_AND_3,
      ...(domain
        ? {
            domainNames: [domain.domainName],
            certificate: Certificate.fromCertificateArn(this, 'Certificate', domain.certificateArn),
            minimumProtocolVersion: SecurityPolicyProtocol.TLS_V1_2_2021,
          }
        : {}),
      ...(props.webAclArn ? { webAclId: props.webAclArn } : {}),
      enableLogging: true,
      logBucket: props.logBucket,
      logFilePrefix: 'cloudfront/',
    });
    this.url = `https://${domain ? domain.domainName : this.distribution.distributionDomainName}`;
  }
}
