import { App, Stack } from 'aws-cdk-lib';
import { beforeAll, describe, expect, it } from 'vitest';
import { GatewayWebAcl } from '../../infra/constructs/gateway-web-acl.ts';
import { routeGroups, validateRouteGroups } from '../../shared/http/route-groups.ts';
import { ORIGIN_SECRET_HEADER } from '../../shared/lambda/origin-secret.ts';
import { logicalId, resourcesOfType, SYNTHESIS_TIMEOUT_MS, synthesizeGateway, type SynthesizedGateway } from './synth-gateway.ts';

interface Origin {
  Id: string;
  DomainName: unknown;
  CustomOriginConfig: Record<string, unknown>;
  OriginCustomHeaders: Array<{ HeaderName: string; HeaderValue: unknown }>;
}
interface CacheBehavior extends Record<string, unknown> {
  PathPattern?: string;
  TargetOriginId: string;
}
interface DistributionConfig extends Record<string, unknown> {
  Origins: Origin[];
  DefaultCacheBehavior: CacheBehavior;
  CacheBehaviors?: CacheBehavior[];
}

/** The origins that are function URLs (the console's files come from S3). */
function functionOrigins(gateway: SynthesizedGateway): Origin[] {
  return distributionConfig(gateway).Origins.filter((origin) => origin.CustomOriginConfig !== undefined);
}

function distributionConfig(gateway: SynthesizedGateway): DistributionConfig {
  const distributions = Object.values(resourcesOfType(gateway.template, 'AWS::CloudFront::Distribution'));
  expect(distributions).toHaveLength(1);
  return distributions[0]?.Properties.DistributionConfig as DistributionConfig;
}

const CACHING_DISABLED = '4135ea2d-6df8-44a3-9df3-4b5a84be39ad';
const ALL_VIEWER_EXCEPT_HOST_HEADER = 'b689b0a8-53d0-40ab-baf2-68738e2966ac';

let plain: SynthesizedGateway;
let customised: SynthesizedGateway;
// Two stacks synthesized: twice the time of one.
beforeAll(() => {
  plain = synthesizeGateway();
  customised = synthesizeGateway({
    customDomain: { domainName: 'gateway.example.com', certificateArn: 'arn:aws:acm:us-east-1:123456789012:certificate/abc' },
    waf: {},
  });
}, 2 * SYNTHESIS_TIMEOUT_MS);

describe('the CloudFront distribution', () => {
  it('sends every other path to the OpenAI function URL: all methods, nothing cached, viewer headers but Host forwarded', () => {
    const config = distributionConfig(plain);
    // One origin per route group, and the console's two: its API's function URL and its files' bucket.
    expect(config.Origins).toHaveLength(routeGroups.length + 2);
    const url = logicalId(plain.template, 'AWS::Lambda::Url', 'RouteGroupopenai');
    const origin = config.Origins.find((candidate) => JSON.stringify(candidate.DomainName).includes(url));
    expect(config.DefaultCacheBehavior).toMatchObject({
      TargetOriginId: origin?.Id,
      AllowedMethods: ['GET', 'HEAD', 'OPTIONS', 'PUT', 'PATCH', 'POST', 'DELETE'],
      CachePolicyId: CACHING_DISABLED,
      OriginRequestPolicyId: ALL_VIEWER_EXCEPT_HOST_HEADER,
      ViewerProtocolPolicy: 'https-only',
    });
  });

  it('routes each other route group by its path patterns, in list order, to its own function URL', () => {
    const config = distributionConfig(plain);
    const expected = routeGroups.flatMap((group) => {
      if (group.paths === 'default') return [];
      const url = logicalId(plain.template, 'AWS::Lambda::Url', `RouteGroup${group.name}`);
      const origin = config.Origins.find((candidate) => JSON.stringify(candidate.DomainName).includes(url));
      return group.paths.map((pattern) =>
        expect.objectContaining({
          PathPattern: pattern,
          TargetOriginId: origin?.Id,
          AllowedMethods: ['GET', 'HEAD', 'OPTIONS', 'PUT', 'PATCH', 'POST', 'DELETE'],
          CachePolicyId: CACHING_DISABLED,
          OriginRequestPolicyId: ALL_VIEWER_EXCEPT_HOST_HEADER,
          ViewerProtocolPolicy: 'https-only',
        }),
      );
    });
    const routeGroupBehaviors = (config.CacheBehaviors ?? []).filter((behavior) => !behavior.PathPattern?.startsWith('/console'));
    expect(routeGroupBehaviors).toEqual(expected);
    expect(config.CacheBehaviors?.map((behavior) => behavior.PathPattern)).toContain('/v1/messages*');
  });

  it('raises the origin read timeout for long generations and keeps connections alive', () => {
    for (const origin of functionOrigins(plain)) {
      expect(origin.CustomOriginConfig).toMatchObject({ OriginReadTimeout: 60, OriginKeepaliveTimeout: 60, OriginProtocolPolicy: 'https-only' });
    }
  });

  it('adds the origin secret header to every function origin as a Secrets Manager dynamic reference, never a value', () => {
    const secret = logicalId(plain.template, 'AWS::SecretsManager::Secret', 'OriginSecret');
    expect(functionOrigins(plain)).toHaveLength(routeGroups.length + 1);
    for (const origin of functionOrigins(plain)) {
      const header = origin.OriginCustomHeaders.find(({ HeaderName }) => HeaderName === ORIGIN_SECRET_HEADER);
      expect(header?.HeaderValue).toEqual({ 'Fn::Join': ['', ['{{resolve:secretsmanager:', { Ref: secret }, ':SecretString:::}}']] });
    }
    plain.template.hasResourceProperties('AWS::SecretsManager::Secret', {
      GenerateSecretString: { PasswordLength: 48, ExcludePunctuation: true },
    });
    expect(plain.json).not.toMatch(/"SecretString"\s*:/);
  });

  it('outputs the CloudFront URL when no domain is given', () => {
    plain.template.hasOutput('GatewayUrl', {
      Value: { 'Fn::Join': ['', ['https://', { 'Fn::GetAtt': [logicalId(plain.template, 'AWS::CloudFront::Distribution', 'Distribution'), 'DomainName'] }]] },
    });
  });

  it('serves a custom domain with its certificate and TLS 1.2 at least', () => {
    const config = distributionConfig(customised);
    expect(config.Aliases).toEqual(['gateway.example.com']);
    expect(config.ViewerCertificate).toMatchObject({
      AcmCertificateArn: 'arn:aws:acm:us-east-1:123456789012:certificate/abc',
      MinimumProtocolVersion: 'TLSv1.2_2021',
      SslSupportMethod: 'sni-only',
    });
    customised.template.hasOutput('GatewayUrl', { Value: 'https://gateway.example.com' });
  });

  it('attaches a web ACL whose body-inspecting rules only count', () => {
    const webAcl = logicalId(customised.template, 'AWS::WAFv2::WebACL', 'WebAcl');
    expect(distributionConfig(customised).WebACLId).toEqual({ 'Fn::GetAtt': [webAcl, 'Arn'] });
    const rules = resourcesOfType(customised.template, 'AWS::WAFv2::WebACL')[webAcl]?.Properties.Rules as Array<{
      Name: string;
      Statement: { ManagedRuleGroupStatement: { RuleActionOverrides?: Array<{ Name: string; ActionToUse: unknown }> } };
    }>;
    const common = rules.find((rule) => rule.Name === 'AWSManagedRulesCommonRuleSet');
    const overrides = common?.Statement.ManagedRuleGroupStatement.RuleActionOverrides ?? [];
    for (const name of ['CrossSiteScripting_BODY', 'SizeRestrictions_BODY']) {
      expect(overrides).toContainEqual({ Name: name, ActionToUse: { Count: {} } });
    }
  });
});

describe('GatewayWebAcl', () => {
  it('refuses a managed rule group whose body rules it does not know', () => {
    const stack = new Stack(new App(), 'Waf', { env: { region: 'us-east-1' } });
    expect(() => new GatewayWebAcl(stack, 'Acl', { managedRuleGroups: ['AWSManagedRulesPHPRuleSet'] })).toThrow(/BODY_INSPECTING_RULES/);
  });

  it('refuses a region other than us-east-1, where CloudFront web ACLs cannot be created', () => {
    const stack = new Stack(new App(), 'Waf', { env: { region: 'eu-west-1' } });
    expect(() => new GatewayWebAcl(stack, 'Acl', { managedRuleGroups: [] })).toThrow(/us-east-1/);
  });
});

describe('validateRouteGroups', () => {
  it('requires exactly one default group and distinct patterns', () => {
    expect(() => validateRouteGroups([{ name: 'a', entry: 'a.ts', paths: ['/a'] }])).toThrow(/default/);
    expect(() =>
      validateRouteGroups([
        { name: 'a', entry: 'a.ts', paths: 'default' },
        { name: 'b', entry: 'b.ts', paths: ['/x'] },
        { name: 'c', entry: 'c.ts', paths: ['/x'] },
      ]),
    ).toThrow(/two route groups/);
  });
});
