import { Stack } from 'aws-cdk-lib';
import { foundationModelOf, isSystemInferenceProfile } from '../../shared/core/bedrock-models.ts';

/** What a deployment lets its route groups invoke on Bedrock (infra/settings/<env>.json, `bedrock`). */
export interface BedrockAccess {
  /** Foundation model ids, system inference profiles (`us.…`, `global.…`), application inference profile ARNs; `*` for all. */
  models: readonly string[];
  /** The regions its Bedrock providers call (their `--region`); the stack's region when absent. */
  regions?: readonly string[];
}

/** Granting every model and profile of the regions, which only an operator's explicit `"*"` asks for. */
export const ALL_BEDROCK_MODELS = '*';

/**
 * The resources `bedrock:InvokeModel` and `bedrock:InvokeModelWithResponseStream` are granted on, model by
 * model (docs/decisions/bedrock.md):
 * - a foundation model: `foundation-model/<id>` in each region;
 * - a system inference profile: the profile in each region, and its foundation model where the profile may
 *   route a request, which IAM checks in the region it routes to: in each of `regions` when the settings
 *   list its destination regions, else in every region (a `us.` profile called in us-east-1 also runs in
 *   us-east-2 and us-west-2, and the stack's region alone failed those calls at random); plus, for a
 *   `global.` profile, the region-less foundation model ARN AWS checks for global routing;
 * - an ARN (an application inference profile, a provisioned model): that ARN alone;
 * - `*`: every foundation model in every region and region-less (what the profiles of the regions route
 *   to), and every profile of the regions.
 */
export function bedrockModelArns(stack: Stack, access: BedrockAccess): string[] {
  const listed = access.regions && access.regions.length > 0 ? access.regions : undefined;
  const regions = listed ?? [stack.region];
  const { partition, account } = stack;
  const foundationModel = (region: string, model: string) => `arn:${partition}:bedrock:${region}::foundation-model/${model}`;
  const arns = access.models.flatMap((model) => {
    if (model === ALL_BEDROCK_MODELS) {
      return [
        foundationModel('*', '*'),
        foundationModel('', '*'),
        ...regions.flatMap((region) => [`arn:${partition}:bedrock:${region}:${account}:inference-profile/*`, `arn:${partition}:bedrock:${region}:${account}:application-inference-profile/*`]),
      ];
    }
    if (model.startsWith('arn:')) return [model];
    if (!isSystemInferenceProfile(model)) return regions.map((region) => foundationModel(region, model));
    const underlying = foundationModelOf(model);
    return [
      ...regions.map((region) => `arn:${partition}:bedrock:${region}:${account}:inference-profile/${model}`),
      ...(listed ?? ['*']).map((region) => foundationModel(region, underlying)),
      ...(model.startsWith('global.') ? [foundationModel('', underlying)] : []),
    ];
  });
  return [...new Set(arns)];
}
