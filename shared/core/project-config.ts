import { z } from 'zod';

/** Project ids appear in key records, secret names and log lines: keep them to a safe alphabet. */
export const projectIdSchema = z
  .string()
  .regex(/^[a-z0-9][a-z0-9_-]{0,63}$/, 'project ids are 1-64 characters of a-z, 0-9, "-" and "_", starting with a letter or digit');

export const providerNameSchema = z
  .string()
  .regex(/^[a-z0-9][a-z0-9_-]{0,63}$/, 'provider names are 1-64 characters of a-z, 0-9, "-" and "_"');

export const providerProtocolSchema = z.enum(['openai', 'anthropic']);
export type ProviderProtocol = z.infer<typeof providerProtocolSchema>;

export const projectSchema = z.object({
  projectId: projectIdSchema,
  name: z.string(),
  plan: z.enum(['active', 'inactive']),
  usageInjection: z.boolean(),
  failover: z.boolean(),
  mcp: z.boolean(),
  /** Per-project overrides of the gateway's upstream time-outs. */
  upstreamFirstByteTimeoutMs: z.number().int().positive().optional(),
  requestDeadlineMs: z.number().int().positive().optional(),
  /** Requests and tokens per minute for the whole project; no limit when absent. */
  rpm: z.number().int().positive().optional(),
  tpm: z.number().int().positive().optional(),
  /** Prepaid projects hold a balance that must cover each request's worst case; postpaid ones do not. */
  prepaid: z.boolean().optional(),
  /** Members removed from the project: their keys are refused with 403. */
  removedMembers: z.array(z.string()).optional(),
  accessPolicy: z
    .object({
      /** Client addresses allowed, as CIDR blocks (IPv4 or IPv6). */
      allowedCidrs: z.array(z.string()).optional(),
      /** `X-Environment` values allowed; a request without one is refused when this is set. */
      allowedEnvironments: z.array(z.string()).optional(),
      /** Endpoint groups allowed, e.g. chat, models, generation. */
      allowedEndpoints: z.array(z.string()).optional(),
    })
    .optional(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type Project = z.infer<typeof projectSchema>;

/** A provider configured on a project. The API key itself lives in the secret store, never here. */
export const providerConfigSchema = z.object({
  provider: providerNameSchema,
  protocol: providerProtocolSchema,
  baseUrl: z.string(),
  /** Whether the secret store holds a key for it (the offline mock provider needs none). */
  hasApiKey: z.boolean(),
  updatedAt: z.string(),
});
export type ProviderConfig = z.infer<typeof providerConfigSchema>;

/** A model on the project's allowlist: `provider/model`, where the model id may itself contain slashes. */
export const allowedModelSchema = z.object({
  slug: z.string(),
  provider: providerNameSchema,
  model: z.string().min(1),
  alias: z.string().optional(),
  /** Set by the admin; absent, the known-models table gives them (see known-models.ts), else unknown. */
  contextLength: z.number().int().positive().optional(),
  maxOutputTokens: z.number().int().positive().optional(),
  description: z.string().optional(),
  createdAt: z.string(),
});
export type AllowedModel = z.infer<typeof allowedModelSchema>;

/** Prices in integer micro-USD per 1,000 tokens, so that cost arithmetic never touches floating point. */
export const rateCardEntrySchema = z.object({
  slug: z.string(),
  inputPriceMicrosPer1k: z.number().int().nonnegative(),
  outputPriceMicrosPer1k: z.number().int().nonnegative(),
  /** Price of prompt tokens served from the provider's cache; the input price when absent. */
  cachedInputPriceMicrosPer1k: z.number().int().nonnegative().optional(),
  /** Price of prompt tokens written to the provider's cache (Anthropic's cache creation); the input price when absent. */
  cacheWriteInputPriceMicrosPer1k: z.number().int().nonnegative().optional(),
});
export type RateCardEntry = z.infer<typeof rateCardEntrySchema>;

/** Everything the request path needs about one project, loaded in one read and cached. */
export interface ProjectConfig {
  project: Project;
  providers: Map<string, ProviderConfig>;
  models: AllowedModel[];
  /** Project-level rate overrides by slug. */
  rates: Map<string, RateCardEntry>;
}

/** Organisation-level default prices by slug. */
export type OrgRateCard = Map<string, RateCardEntry>;

/** The project's price for a model: its own override wins over the organisation's default. */
export function effectiveRate(slug: string, config: ProjectConfig, orgRates: OrgRateCard): RateCardEntry {
  return (
    config.rates.get(slug) ?? orgRates.get(slug) ?? { slug, inputPriceMicrosPer1k: 0, outputPriceMicrosPer1k: 0 }
  );
}

/** Splits `provider/model` at the first slash: `openrouter/openai/gpt-4o-mini` → openrouter + openai/gpt-4o-mini. */
export function splitModelSlug(slug: string): { provider: string; model: string } | undefined {
  const slash = slug.indexOf('/');
  if (slash <= 0 || slash === slug.length - 1) return undefined;
  return { provider: slug.slice(0, slash), model: slug.slice(slash + 1) };
}
