import { Stack, Validations } from 'aws-cdk-lib';
import type { Distribution } from 'aws-cdk-lib/aws-cloudfront';
import type { UserPool } from 'aws-cdk-lib/aws-cognito';
import type { IRole } from 'aws-cdk-lib/aws-iam';
import { Asset } from 'aws-cdk-lib/aws-s3-assets';
import type { BucketDeployment } from 'aws-cdk-lib/aws-s3-deployment';
import type { ISecret } from 'aws-cdk-lib/aws-secretsmanager';
import { flattenCfnReference } from 'cdk-nag/lib/utils/flatten-cfn-reference.js';
import type { IConstruct } from 'constructs';

/**
 * Every cdk-nag (AwsSolutions) finding the stack accepts, each with its reason. A finding not listed
 * here stops `cdk synth`. Wildcard findings are named from the same values the grants use, so a
 * suppression cannot silently cover a different resource.
 */
export interface AcceptedFindings {
  /** The functions' roles, whose policies hold the grants. */
  routeGroupRoles: IRole[];
  writerRole: IRole;
  adminRole: IRole;
  usageCompactorRole: IRole;
  consoleRole: IRole;
  /** CDK's BucketDeployment of the console's files, its handler's role, and the bucket it writes to. */
  consoleDeployment: BucketDeployment;
  consoleDeploymentRole: IRole;
  consoleFilesBucketArn: string;
  consoleUserPool: UserPool;
  queryResultsArn: string;
  originSecret: ISecret;
  distribution: Distribution;
  providerSecretsArn: string;
  usageObjectsArn: string;
  spillObjectsArn: string;
  hasCustomDomain: boolean;
  hasWebAcl: boolean;
  /**
   * Bedrock grants with a wildcard: when the deployment's settings ask for every model (`"models": ["*"]`),
   * or name an inference profile without its destination regions (its foundation model in every region).
   */
  bedrockModelArns: readonly string[];
}

export function acknowledgeAcceptedFindings(stack: Stack, accepted: AcceptedFindings): void {
  const providerSecrets = wildcard(stack, accepted.providerSecretsArn);
  const secretsReason =
    'Provider keys are created at run time by the admin function as model-gateway/provider/<projectId>/<provider>; the grant names that prefix, and Secrets Manager adds a random suffix to each ARN.';

  for (const role of [...accepted.routeGroupRoles, accepted.adminRole, accepted.consoleRole]) {
    acknowledge(role, `AwsSolutions-IAM5[${providerSecrets}]`, secretsReason);
  }
  acknowledge(
    accepted.writerRole,
    `AwsSolutions-IAM5[${wildcard(stack, accepted.usageObjectsArn)}]`,
    'The writer puts one usage file per batch and day under usage/dt=<day>/, named after the records it holds; it may write nothing else.',
  );
  acknowledge(
    accepted.usageCompactorRole,
    `AwsSolutions-IAM5[${wildcard(stack, accepted.usageObjectsArn)}]`,
    'The compactor reads, puts and deletes the usage files of any day under usage/dt=<day>/ (it merges a day\'s files into one); it may touch nothing else in the bucket and lists only that prefix.',
  );
  for (const role of accepted.routeGroupRoles) {
    acknowledge(
      role,
      `AwsSolutions-IAM5[${wildcard(stack, accepted.spillObjectsArn)}]`,
      'A route group puts a usage record SQS refused under spill/<recordId>.json; it may put nothing else there and read nothing.',
    );
  }
  for (const arn of accepted.bedrockModelArns) {
    for (const role of accepted.routeGroupRoles) {
      acknowledge(
        role,
        `AwsSolutions-IAM5[${wildcard(stack, arn)}]`,
        arn.endsWith('/*')
          ? 'The deployment settings ask for every Bedrock model ("bedrock": {"models": ["*"]}): every foundation model in every region and region-less, which the inference profiles of the listed regions route to, and every profile of those regions; without that setting the grants name each model.'
          : 'The deployment settings name a cross-region inference profile without its destination regions ("bedrock": {"regions"}): IAM checks its foundation model, named here, in whichever region the profile routes a request to.',
      );
    }
  }
  acknowledgeConsoleFindings(stack, accepted);
  acknowledge(
    accepted.originSecret,
    'AwsSolutions-SMG4',
    'The origin secret is a random header value shared by CloudFront and the functions, not a credential of another service: rotated by npm run rotate-origin-secret and a deployment, since the CloudFront configuration must change with it (docs/decisions/origin-secret.md).',
  );

  const distribution = accepted.distribution;
  acknowledge(distribution, 'AwsSolutions-CFR1', 'An API for the organisation\'s own applications and agents, authenticated by project keys: geo restriction is the deployer\'s policy choice.');
  if (!accepted.hasCustomDomain) {
    acknowledge(
      distribution,
      'AwsSolutions-CFR4',
      'Without a custom domain CloudFront serves its default *.cloudfront.net certificate, whose minimum protocol cannot be set; with domainName and certificateArn the stack requires TLS 1.2.',
    );
  }
  if (!accepted.hasWebAcl) {
    acknowledge(
      distribution,
      'AwsSolutions-CFR2',
      'WAF is optional (waf / webAclArn props); when attached, its body-inspecting rules must exempt the gateway (docs/decisions/infrastructure.md).',
    );
  }
}

/** The console's: its usage queries' file prefixes, CDK's deployment of its files, the user pool's tier. */
function acknowledgeConsoleFindings(stack: Stack, accepted: AcceptedFindings): void {
  acknowledge(
    accepted.consoleRole,
    `AwsSolutions-IAM5[${wildcard(stack, accepted.usageObjectsArn)}]`,
    'Athena reads the usage files under usage/dt=<day>/ for the console\'s usage pages (get only); the grant names that prefix of the usage bucket.',
  );
  acknowledge(
    accepted.consoleRole,
    `AwsSolutions-IAM5[${wildcard(stack, accepted.queryResultsArn)}]`,
    'Athena writes the console\'s query results under the workgroup\'s athena/ prefix of the results bucket, one object per query id.',
  );
  const deploymentReason =
    "CDK's BucketDeployment grants its handler these actions to copy the built console files from the CDK asset bucket to the console bucket and invalidate the console's CloudFront paths (CloudFront invalidations take no resource ARN).";
  const deploymentFindings = [
    'Action::s3:GetBucket*',
    'Action::s3:GetObject*',
    'Action::s3:List*',
    'Action::s3:Abort*',
    'Action::s3:DeleteObject*',
    wildcard(stack, `${accepted.consoleFilesBucketArn}/*`),
    'Resource::*',
    ...accepted.consoleDeployment.node.children.filter((child) => child instanceof Asset).map((asset) => wildcard(stack, `${asset.bucket.bucketArn}/*`)),
  ];
  for (const finding of new Set(deploymentFindings)) acknowledge(accepted.consoleDeploymentRole, `AwsSolutions-IAM5[${finding}]`, deploymentReason);
  for (const child of stack.node.children.filter((construct) => construct.node.id.startsWith('Custom::CDKBucketDeployment'))) {
    acknowledge(child, 'AwsSolutions-L1', "CDK's BucketDeployment provider function: aws-cdk-lib chooses its runtime (Python) and updates it with the library.");
  }
  acknowledge(
    accepted.consoleUserPool,
    'AwsSolutions-COG8',
    'The console pool requires MFA (TOTP) and strong passwords, and allows no self sign-up; the Plus tier (threat protection) is billed per user and left to the deployer.',
  );
}

/** The finding id cdk-nag gives a wildcard resource: `Resource::` and the flattened CloudFormation value. */
function wildcard(stack: Stack, arn: string): string {
  return `Resource::${flattenCfnReference(stack.resolve(arn))}`;
}

function acknowledge(scope: IConstruct, id: string, reason: string): void {
  Validations.of(scope).acknowledge({ id, reason });
}
