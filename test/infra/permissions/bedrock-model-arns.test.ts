import { App, Stack } from 'aws-cdk-lib';
import { AwsSolutionsChecks } from 'cdk-nag';
import { describe, expect, it } from 'vitest';
import { bedrockModelArns } from '../../../infra/permissions/bedrock-model-arns.ts';
import { statementsOfFunction, resourcesOf, actionsOf } from '../iam-statements.ts';
import { SYNTHESIS_TIMEOUT_MS, synthesizeGateway, TEST_ENV } from '../synth-gateway.ts';

/** The ARNs as the template holds them, resolved for a stack in TEST_ENV. */
function arnsFor(models: string[], regions?: string[]): string[] {
  const stack = new Stack(new App(), 'Arns', { env: TEST_ENV });
  return bedrockModelArns(stack, { models, ...(regions ? { regions } : {}) }).map((arn) => {
    const resolved = stack.resolve(arn) as string | { 'Fn::Join': [string, unknown[]] };
    if (typeof resolved === 'string') return resolved;
    return resolved['Fn::Join'][1].map((part) => (typeof part === 'string' ? part : 'aws')).join(resolved['Fn::Join'][0]);
  });
}

describe('bedrockModelArns', () => {
  it('grants a foundation model in each listed region', () => {
    expect(arnsFor(['amazon.nova-pro-v1:0'], ['us-east-1', 'us-west-2'])).toEqual([
      'arn:aws:bedrock:us-east-1::foundation-model/amazon.nova-pro-v1:0',
      'arn:aws:bedrock:us-west-2::foundation-model/amazon.nova-pro-v1:0',
    ]);
  });

  it("grants a cross-region profile and its foundation model in the regions it may route to, and a global profile's region-less model", () => {
    expect(arnsFor(['us.anthropic.claude-sonnet-4-5-20250929-v1:0'], ['us-east-1', 'us-east-2'])).toEqual([
      'arn:aws:bedrock:us-east-1:123456789012:inference-profile/us.anthropic.claude-sonnet-4-5-20250929-v1:0',
      'arn:aws:bedrock:us-east-2:123456789012:inference-profile/us.anthropic.claude-sonnet-4-5-20250929-v1:0',
      'arn:aws:bedrock:us-east-1::foundation-model/anthropic.claude-sonnet-4-5-20250929-v1:0',
      'arn:aws:bedrock:us-east-2::foundation-model/anthropic.claude-sonnet-4-5-20250929-v1:0',
    ]);
    expect(arnsFor(['global.anthropic.claude-haiku-4-5-20251001-v1:0'], ['us-east-1'])).toEqual([
      'arn:aws:bedrock:us-east-1:123456789012:inference-profile/global.anthropic.claude-haiku-4-5-20251001-v1:0',
      'arn:aws:bedrock:us-east-1::foundation-model/anthropic.claude-haiku-4-5-20251001-v1:0',
      'arn:aws:bedrock:::foundation-model/anthropic.claude-haiku-4-5-20251001-v1:0',
    ]);
  });

  it('grants the foundation model of a profile in every region when the settings list none: IAM checks it where the profile routes', () => {
    expect(arnsFor(['us.anthropic.claude-sonnet-4-5-20250929-v1:0'])).toEqual([
      'arn:aws:bedrock:us-east-1:123456789012:inference-profile/us.anthropic.claude-sonnet-4-5-20250929-v1:0',
      'arn:aws:bedrock:*::foundation-model/anthropic.claude-sonnet-4-5-20250929-v1:0',
    ]);
  });

  it('grants an application inference profile by its ARN alone, and everything only when the settings say "*"', () => {
    const profile = 'arn:aws:bedrock:us-east-1:123456789012:application-inference-profile/a1b2c3';
    expect(arnsFor([profile], ['us-east-1', 'eu-west-1'])).toEqual([profile]);
    // The profiles of the region route to foundation models in other regions, and global ones region-less.
    expect(arnsFor(['*'])).toEqual([
      'arn:aws:bedrock:*::foundation-model/*',
      'arn:aws:bedrock:::foundation-model/*',
      'arn:aws:bedrock:us-east-1:123456789012:inference-profile/*',
      'arn:aws:bedrock:us-east-1:123456789012:application-inference-profile/*',
    ]);
  });
});

describe('a gateway whose settings ask for every Bedrock model', () => {
  it('grants the route groups that call models "*" in the region, acknowledged by cdk-nag with its reason, and the tool bridge nothing', () => {
    const gateway = synthesizeGateway({ bedrock: { models: ['*'] } });
    const bedrockStatements = (prefix: string) => statementsOfFunction(gateway.template, prefix).filter((statement) => actionsOf(statement).some((action) => action.startsWith('bedrock:')));

    expect(bedrockStatements('RouteGroupopenai').flatMap(actionsOf)).toEqual(['bedrock:InvokeModel', 'bedrock:InvokeModelWithResponseStream']);
    expect(bedrockStatements('RouteGroupopenai').flatMap(resourcesOf)).toHaveLength(4);
    expect(bedrockStatements('RouteGroupmcp')).toEqual([]);
    const report = new AwsSolutionsChecks(gateway.app).validateScope(gateway.app);
    expect(report.violations.map((violation) => violation.ruleName)).toEqual([]);
  }, SYNTHESIS_TIMEOUT_MS);
});
