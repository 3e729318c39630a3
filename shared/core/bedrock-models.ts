import * as z from 'zod';

/** An AWS region name, e.g. `us-east-1` or `eu-central-2`. */
export const awsRegionSchema = z.string().regex(/^[a-z]{2}(-[a-z]+)+-\d$/, 'AWS regions are named like us-east-1');

/**
 * The geographic prefixes of Bedrock's system-defined (cross-region) inference profiles: `us.`, `eu.`,
 * `global.`, … before a foundation model id. AWS adds geographies now and then; an id with an unknown
 * prefix is still routed, only not recognised as a profile by the helpers below.
 */
const INFERENCE_PROFILE_PREFIX = /^(us|us-gov|eu|apac|jp|au|ca|global)\.(?=[a-z0-9-]+\.)/;

/** The Bedrock runtime endpoint of a region (where InvokeModel and Converse are served). */
export function bedrockRuntimeUrl(region: string): string {
  return `https://bedrock-runtime.${region}.amazonaws.com`;
}

/** Whether a Bedrock model id names a system-defined cross-region inference profile (`us.anthropic.claude-…`). */
export function isSystemInferenceProfile(modelId: string): boolean {
  return INFERENCE_PROFILE_PREFIX.test(modelId);
}

/** The foundation model a Bedrock id stands for: the id itself, or a system profile's id without its prefix. */
export function foundationModelOf(modelId: string): string {
  return modelId.replace(INFERENCE_PROFILE_PREFIX, '');
}

/**
 * Whether a Bedrock model is one of Anthropic's, which Bedrock serves with Anthropic's Messages body over
 * InvokeModel: ids `anthropic.…`, profiles `us.anthropic.…`, and ARNs that name them. An application
 * inference profile's ARN does not say which model it wraps: those are reached through Converse, which
 * serves every model (docs/decisions/bedrock.md).
 */
export function isAnthropicBedrockModel(modelId: string): boolean {
  return /(^|[./:])anthropic\.claude/.test(modelId);
}

/**
 * The model id as Anthropic names it, for tables keyed by Anthropic's names (model limits):
 * `us.anthropic.claude-haiku-4-5-20251001-v1:0` → `claude-haiku-4-5-20251001`.
 */
export function anthropicNameOf(modelId: string): string | undefined {
  if (!isAnthropicBedrockModel(modelId)) return undefined;
  const model = foundationModelOf(modelId.slice(modelId.lastIndexOf('/') + 1));
  return model.replace(/^anthropic\./, '').replace(/-v\d+(:\d+)?$/, '');
}
