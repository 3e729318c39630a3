import * as z from 'zod';
import { GatewayError } from './errors.ts';

/** Why only a sort by price is offered, for every way a request asks for another. */
export const SORTS_BY_PRICE_ONLY = 'the gateway sorts by "price" only; it measures no throughput or latency to sort by';

const DATA_COLLECTION_DENY_REFUSED = 'the gateway knows no provider\'s data-retention policy, so it cannot route by it: only "allow" (the default) is accepted';

/**
 * OpenRouter's names (display name and slug) for the known providers whose gateway name is another word:
 * `"order": ["Amazon Bedrock"]`, copied from an OpenRouter set-up, means the gateway's `bedrock`.
 */
const OPENROUTER_PROVIDER_NAMES: Readonly<Record<string, string>> = {
  'amazon bedrock': 'bedrock',
  'amazon-bedrock': 'bedrock',
  'google ai studio': 'gemini',
  'google-ai-studio': 'gemini',
  'x-ai': 'xai',
};

/**
 * Provider names as the gateway knows them: lowercase (project-config.ts). OpenRouter takes its providers'
 * display names as well as their slugs (`"order": ["Anthropic", "OpenAI"]`, as aider's and LangChain's
 * guides write them); matched as written, `ignore: ["OpenAI"]` would still route to "openai". A name
 * OpenRouter gives a known provider also names that provider, beside itself (a project may have named a
 * provider of its own so), at the same place in the list.
 */
const providerNamesSchema = z
  .array(z.string().min(1))
  .transform((names) =>
    names.flatMap((name) => {
      const lower = name.toLowerCase();
      const known = OPENROUTER_PROVIDER_NAMES[lower];
      return known ? [lower, known] : [lower];
    }),
  )
  .optional();

/**
 * The `provider` object of a request, with the fields OpenRouter users know. Unknown fields are refused
 * by name: a preference silently ignored would route somewhere the client did not intend.
 */
export const providerPreferencesSchema = z.strictObject({
  order: providerNamesSchema,
  allow_fallbacks: z.boolean().optional(),
  only: providerNamesSchema,
  ignore: providerNamesSchema,
  // OpenRouter's "throughput" and "latency" need measurements the gateway does not keep: refused, and said so.
  sort: z
    .union([z.literal('price'), z.strictObject({ by: z.literal('price'), partition: z.string().optional() })], {
      error: `${SORTS_BY_PRICE_ONLY} ("price" or {"by": "price"})`,
    })
    .optional(),
  /** USD per million tokens. */
  max_price: z.strictObject({ prompt: z.number().nonnegative().optional(), completion: z.number().nonnegative().optional() }).optional(),
  require_parameters: z.boolean().optional(),
  // OpenRouter's default, which asks for nothing: accepted. The gateway knows no provider's data policy, so
  // it could not keep to "deny": refused, and said so, rather than routed as if it had.
  data_collection: z.literal('allow', { error: DATA_COLLECTION_DENY_REFUSED }).optional(),
});
export type ProviderPreferences = z.infer<typeof providerPreferencesSchema>;

export function parseProviderPreferences(value: unknown): ProviderPreferences {
  if (value === undefined || value === null) return {};
  const parsed = providerPreferencesSchema.safeParse(value);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  const keys = issue && 'keys' in issue && Array.isArray(issue.keys) ? issue.keys : [];
  const path = ['provider', ...(issue?.path ?? []).map(String)].join('.');
  const message =
    issue?.code === 'unrecognized_keys'
      ? `Unknown field "${path}.${String(keys[0])}" in the provider preferences; supported: order, allow_fallbacks, only, ignore, sort ("price"), max_price {prompt, completion}, require_parameters, data_collection ("allow").`
      : `Invalid field "${path}": ${issue?.message ?? 'invalid value'}.`;
  throw new GatewayError('invalid_request', message, {
    code: 'invalid_provider_preferences',
    param: issue?.code === 'unrecognized_keys' ? `${path}.${String(keys[0])}` : path,
  });
}
