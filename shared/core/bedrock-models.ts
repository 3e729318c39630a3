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

/** Where a Bedrock model takes prompt-caching checkpoints (`cachePoint`). */
export type BedrockCacheField = 'system' | 'messages' | 'tools';

/** Claude models Bedrock serves without prompt caching: Claude 2, Instant, 3 and 3.5 Sonnet v1. */
const UNCACHED_CLAUDE = /^anthropic\.claude-(v2|instant|3-(haiku|sonnet|opus)-|3-5-sonnet-20240620)/;
const NOVA_WITH_CACHING = /^amazon\.nova-(micro|lite|pro|premier|2-lite)-/;

/**
 * The prompt parts a Bedrock model caches, from AWS's table of supported models: Claude (3.5 Haiku, 3.7
 * Sonnet and later) system, messages and tools; Nova (Micro, Lite, Pro, Premier, 2 Lite) system and
 * messages; every other foundation model nothing (Bedrock refuses a `cachePoint` on those: "You invoked an
 * unsupported model or your request did not allow prompt caching"). `undefined` for an id that does not
 * say which model it is (an application inference profile's ARN, which is how Claude reaches Converse):
 * every mark is written, and Bedrock applies what that model takes.
 */
export function bedrockCacheFields(modelId: string): readonly BedrockCacheField[] | undefined {
  // A foundation model's or system profile's ARN names its model; other ARNs (application profiles) do not.
  const named = /:(foundation-model|inference-profile)\//.test(modelId) ? modelId.slice(modelId.lastIndexOf('/') + 1) : modelId;
  if (named.startsWith('arn:')) return undefined;
  const model = foundationModelOf(named);
  if (NOVA_WITH_CACHING.test(model)) return ['system', 'messages'];
  if (/^anthropic\.claude-/.test(model)) return UNCACHED_CLAUDE.test(model) ? [] : ['system', 'messages', 'tools'];
  return /^[a-z0-9-]+\.[a-z0-9]/.test(model) ? [] : undefined;
}
