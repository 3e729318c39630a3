import { Token, Stack } from 'aws-cdk-lib';
import { CfnWebACL } from 'aws-cdk-lib/aws-wafv2';
import { Construct } from 'constructs';

/**
 * The rules of AWS managed rule groups that inspect the request body, by group. Coding-agent prompts
 * carry source code, shell commands, SQL and XML-like tags, and are far larger than 8 KB: these rules would
 * block ordinary gateway traffic, so they only count. A group missing here is refused until its body rules
 * are listed (see the AWS Managed Rules documentation of each group).
 */
export const BODY_INSPECTING_RULES: Readonly<Record<string, readonly string[]>> = {
  AWSManagedRulesCommonRuleSet: [
    'SizeRestrictions_BODY',
    'CrossSiteScripting_BODY',
    'GenericLFI_BODY',
    'GenericRFI_BODY',
    'EC2MetaDataSSRF_BODY',
  ],
  AWSManagedRulesKnownBadInputsRuleSet: ['JavaDeserializationRCE_BODY', 'Log4JRCE_BODY'],
  AWSManagedRulesSQLiRuleSet: ['SQLi_BODY', 'SQLiExtendedPatterns_BODY'],
  AWSManagedRulesAmazonIpReputationList: [],
  AWSManagedRulesAnonymousIpList: [],
};

export const DEFAULT_MANAGED_RULE_GROUPS = [
  'AWSManagedRulesAmazonIpReputationList',
  'AWSManagedRulesCommonRuleSet',
  'AWSManagedRulesKnownBadInputsRuleSet',
];

export interface GatewayWebAclProps {
  /** AWS managed rule groups (vendor AWS), in priority order. */
  managedRuleGroups: readonly string[];
}

/**
 * A CloudFront-scope web ACL whose body-inspecting managed rules are overridden to `count` for the whole
 * distribution, which serves nothing but the gateway's API paths. CloudFront-scope web ACLs exist only
 * in us-east-1: deploy the stack there, or attach an ACL made elsewhere with `webAclArn` and apply the
 * same overrides to it (docs/decisions/infrastructure.md).
 */
export class GatewayWebAcl extends Construct {
  readonly webAcl: CfnWebACL;

  constructor(scope: Construct, id: string, props: GatewayWebAclProps) {
    super(scope, id);
    const region = Stack.of(this).region;
    if (!Token.isUnresolved(region) && region !== 'us-east-1') {
      throw new Error(`A CloudFront web ACL must be created in us-east-1, not ${region}: deploy there or pass webAclArn.`);
    }
    const rules = props.managedRuleGroups.map((name, priority): CfnWebACL.RuleProperty => {
      const bodyRules = BODY_INSPECTING_RULES[name];
      if (bodyRules === undefined) {
        throw new Error(`Unknown body-inspecting rules of ${name}: list them in BODY_INSPECTING_RULES before using the group.`);
      }
      return {
        name,
        priority,
        overrideAction: { none: {} },
        statement: {
          managedRuleGroupStatement: {
            vendorName: 'AWS',
            name,
            ...(bodyRules.length > 0
              ? { ruleActionOverrides: bodyRules.map((ruleName) => ({ name: ruleName, actionToUse: { count: {} } })) }
              : {}),
          },
        },
        visibilityConfig: { cloudWatchMetricsEnabled: true, sampledRequestsEnabled: false, metricName: name },
      };
    });
    this.webAcl = new CfnWebACL(this, 'WebAcl', {
      scope: 'CLOUDFRONT',
      defaultAction: { allow: {} },
      rules,
      // No sampled requests: a sample shows the request's headers, project keys included.
      visibilityConfig: { cloudWatchMetricsEnabled: true, sampledRequestsEnabled: false, metricName: 'model-gateway' },
    });
  }
}
