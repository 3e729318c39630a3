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
 * - a system inference profile: the profile in each region, and its foundation model in each region
 *   (where the profile may route a request: list its destination regions in `regions`), plus, for a
 *   `global.` profile, the region-less foundation model ARN AWS checks for global routing;
 * - an ARN (an application inference profile, a provisioned model): that ARN alone;
 * - `*`: every foundation model and every profile of the regions.
 */
export function bedrockModelArns(stack: Stack, access: BedrockAccess): string[] {
  const regions = access.regions && access.regions.length > 0 ? access.regions : [stack.region];
  const { partition, account } = stack;
  const foundationModel = (region: string, model: string) => `arn:${partition}:bedrock:${region}::foundation-model/${model}`;
  const arns = access.models.flatMap((model) => {
    if (model === ALL_BEDROCK_MODELS) {
      return regions.flatMap((region) => [foundationModel(region, '*'), `arn:${partition}:bedrock:${region}:${account}:inference-profile/*`, `arn:${partition}:bedrock:${region}:${account}:application-inference-profile/*`]);
    }
    if (model.startsWith('arn:')) return [model];
    if (!isSystemInferenceProfile(model)) return regions.map((region) => foundationModel(region, model));
    const underlying = foundationModelOf(model);
    return [
      ...regions.map((region) => `arn:${partition}:bedrock:${region}:${account}:inference-profile/${model}`),
      ...regions.map((region) => foundationModel(region, underlying)),
      ...(model.startsWith('global.') ? [foundationModel('', underlying)] : []),
    ];
  });
  return [...new Set(arns)];
}
