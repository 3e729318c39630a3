import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { ORIGIN_SECRET_HEADER } from '../../shared/lambda/origin-secret.ts';
import { logicalId, resourcesOfType, synthesizeGateway, type SynthesizedGateway } from './synth-gateway.ts';

interface Behavior extends Record<string, unknown> {
  PathPattern: string;
  TargetOriginId: string;
}
interface Origin extends Record<string, unknown> {
  Id: string;
  DomainName: unknown;
}

let gateway: SynthesizedGateway;
beforeAll(() => {
  gateway = synthesizeGateway();
});

function distribution(): { Origins: Origin[]; CacheBehaviors: Behavior[] } {
  const [resource] = Object.values(resourcesOfType(gateway.template, 'AWS::CloudFront::Distribution'));
  return resource?.Properties.DistributionConfig as { Origins: Origin[]; CacheBehaviors: Behavior[] };
}

const distributionDomain = () => ({ 'Fn::GetAtt': [logicalId(gateway.template, 'AWS::CloudFront::Distribution', 'Distribution'), 'DomainName'] });

describe('the console in the stack', () => {
  it('creates a user pool for the console: e-mail sign-in, MFA required, no self sign-up', () => {
    gateway.template.hasResourceProperties('AWS::Cognito::UserPool', {
      UsernameAttributes: ['email'],
      MfaConfiguration: 'ON',
      EnabledMfas: ['SOFTWARE_TOKEN_MFA'],
      AdminCreateUserConfig: { AllowAdminCreateUserOnly: true },
      Policies: { PasswordPolicy: { MinimumLength: 12, RequireSymbols: true } },
    });
    gateway.template.hasResourceProperties('AWS::Cognito::UserPoolDomain', { Domain: 'modelgateway-console-123456789012' });
  });

  it('gives the page a public app client: authorization code only (with PKCE from the page), no secret, back to /console/ only', () => {
    const clients = Object.values(resourcesOfType(gateway.template, 'AWS::Cognito::UserPoolClient'));
    expect(clients).toHaveLength(1);
    const client = clients[0]?.Properties ?? {};
    expect(client).toMatchObject({
      GenerateSecret: false,
      AllowedOAuthFlows: ['code'],
      AllowedOAuthFlowsUserPoolClient: true,
      AllowedOAuthScopes: ['openid', 'email'],
      SupportedIdentityProviders: ['COGNITO'],
      PreventUserExistenceErrors: 'ENABLED',
      CallbackURLs: [{ 'Fn::Join': ['', ['https://', distributionDomain(), '/console/']] }],
    });
    expect(client.ExplicitAuthFlows).toEqual(['ALLOW_REFRESH_TOKEN_AUTH']);
  });

  it('routes /console/api/* to the console function URL with the origin secret, before the files', () => {
    const { Origins, CacheBehaviors } = distribution();
    const patterns = CacheBehaviors.map((behavior) => behavior.PathPattern);
    expect(patterns.indexOf('/console/api/*')).toBeLessThan(patterns.indexOf('/console*'));
    const api = CacheBehaviors.find((behavior) => behavior.PathPattern === '/console/api/*');
    const url = logicalId(gateway.template, 'AWS::Lambda::Url', 'ConsoleApi');
    const origin = Origins.find((candidate) => candidate.Id === api?.TargetOriginId);
    expect(JSON.stringify(origin?.DomainName)).toContain(url);
    expect(JSON.stringify(origin)).toContain(ORIGIN_SECRET_HEADER);
    expect(api).toMatchObject({ CachePolicyId: '4135ea2d-6df8-44a3-9df3-4b5a84be39ad', ViewerProtocolPolicy: 'https-only' });
  });

  it('serves the files from a private bucket through origin access control, with a strict CSP and an index rewrite', () => {
    const { Origins, CacheBehaviors } = distribution();
    const files = CacheBehaviors.find((behavior) => behavior.PathPattern === '/console*');
    const origin = Origins.find((candidate) => candidate.Id === files?.TargetOriginId);
    expect(origin).toMatchObject({ S3OriginConfig: { OriginAccessIdentity: '' }, OriginAccessControlId: expect.anything() });
    expect(files).toMatchObject({ AllowedMethods: ['GET', 'HEAD'], FunctionAssociations: [expect.objectContaining({ EventType: 'viewer-request' })] });
    gateway.template.hasResourceProperties('AWS::S3::Bucket', {
      PublicAccessBlockConfiguration: { BlockPublicAcls: true, BlockPublicPolicy: true, IgnorePublicAcls: true, RestrictPublicBuckets: true },
      LoggingConfiguration: { LogFilePrefix: 'console/' },
    });
    const [policy] = Object.values(resourcesOfType(gateway.template, 'AWS::CloudFront::ResponseHeadersPolicy'));
    const headers = (policy?.Properties.ResponseHeadersPolicyConfig as { SecurityHeadersConfig: Record<string, { ContentSecurityPolicy?: unknown }> }).SecurityHeadersConfig;
    const csp = JSON.stringify(headers.ContentSecurityPolicy?.ContentSecurityPolicy);
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).not.toContain('unsafe-inline');
    expect(csp).toContain('.auth.us-east-1.amazoncognito.com');
    expect(headers).toMatchObject({ FrameOptions: { FrameOption: 'DENY' }, ReferrerPolicy: { ReferrerPolicy: 'no-referrer' }, ContentTypeOptions: { Override: true } });
  });

  it('deploys the built files and config.json (naming the pool and the app client) under console/, then invalidates the console paths', () => {
    const [deployment] = Object.values(resourcesOfType(gateway.template, 'Custom::CDKBucketDeployment'));
    const properties = deployment?.Properties ?? {};
    expect(properties).toMatchObject({ DestinationBucketKeyPrefix: 'console/', DistributionPaths: ['/console*'], SystemMetadata: { 'cache-control': 'no-cache' } });
    const keys = properties.SourceObjectKeys as string[];
    expect(keys).toHaveLength(2);
    const markers = JSON.stringify(properties.SourceMarkers);
    expect(markers).toContain(logicalId(gateway.template, 'AWS::Cognito::UserPoolClient', 'ConsoleSignInUsersConsole'));
    expect(markers).toContain(logicalId(gateway.template, 'AWS::Cognito::UserPool', 'ConsoleSignInUsers'));
    const builtFiles = keys.map((key) => readdirSync(join(gateway.outdir, `asset.${key.replace(/\.zip$/, '')}`)).sort());
    expect(builtFiles).toContainEqual(['console.css', 'console.js', 'index.html']);
    expect(builtFiles).toContainEqual(['config.json']);
  });

  it('configures the console function for Cognito sign-in and Athena usage queries', () => {
    const id = logicalId(gateway.template, 'AWS::Lambda::Function', 'ConsoleApi');
    const variables = (resourcesOfType(gateway.template, 'AWS::Lambda::Function')[id]?.Properties.Environment as { Variables: Record<string, unknown> }).Variables;
    expect(variables).toMatchObject({
      GATEWAY_CONSOLE_SITE_BUCKET: { Ref: logicalId(gateway.template, 'AWS::S3::Bucket', 'ConsoleFiles') },
      GATEWAY_ATHENA_WORKGROUP: { Ref: logicalId(gateway.template, 'AWS::Athena::WorkGroup', 'UsageAnalyticsWorkGroup') },
      GATEWAY_USAGE_DATABASE: 'model_gateway',
      GATEWAY_ORIGIN_SECRET_ARN: { Ref: logicalId(gateway.template, 'AWS::SecretsManager::Secret', 'OriginSecret') },
      POWERTOOLS_SERVICE_NAME: 'gateway-console',
    });
  });

  it('outputs the console URL and its user pool', () => {
    gateway.template.hasOutput('ConsoleUrl', { Value: { 'Fn::Join': ['', ['https://', distributionDomain(), '/console/']] } });
    gateway.template.hasOutput('ConsoleUserPoolId', { Value: { Ref: logicalId(gateway.template, 'AWS::Cognito::UserPool', 'ConsoleSignInUsers') } });
  });
});
