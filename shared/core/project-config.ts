import * as z from 'zod';
import { awsRegionSchema, isAnthropicBedrockModel } from './bedrock-models.ts';
import type { McpServerConfig } from './mcp-server-config.ts';

/** Project ids appear in key records, secret names and log lines: keep them to a safe alphabet. */
export const projectIdSchema = z
  .string()
  .regex(/^[a-z0-9][a-z0-9_-]{0,63}$/, 'project ids are 1-64 characters of a-z, 0-9, "-" and "_", starting with a letter or digit');

export const providerNameSchema = z
  .string()
  .regex(/^[a-z0-9][a-z0-9_-]{0,63}$/, 'provider names are 1-64 characters of a-z, 0-9, "-" and "_"');

/**
 * The conversation protocols (chat completions, messages, responses, and the Bedrock runtime's), which the
 * gateway translates between through its canonical model (shared/protocols/registry.ts). The Bedrock
 * runtime's are spoken with providers only: Anthropic's Messages body over InvokeModel, and Converse.
 */
export const conversationProtocolSchema = z.enum(['openai-chat', 'anthropic-messages', 'openai-responses', 'bedrock-anthropic-messages', 'bedrock-converse']);
export type ConversationProtocolId = z.infer<typeof conversationProtocolSchema>;
/** The protocols clients speak to the gateway. */
export type ClientProtocolId = Extract<ConversationProtocolId, 'openai-chat' | 'anthropic-messages' | 'openai-responses'>;

/** The rerank dialects providers serve at `/rerank`: Cohere's (the clients'), Jina's (Together's too) and Voyage's. */
export const rerankProtocolSchema = z.enum(['cohere-rerank', 'jina-rerank', 'voyage-rerank']);
export type RerankProtocolId = z.infer<typeof rerankProtocolSchema>;

/**
 * The wire protocols the gateway speaks with providers. A provider speaks a set of them (many
 * OpenAI-compatible providers serve chat completions and the Responses API; Together also reranks).
 */
export const wireProtocolSchema = z.enum([...conversationProtocolSchema.options, ...rerankProtocolSchema.options]);
export type WireProtocolId = z.infer<typeof wireProtocolSchema>;

export function isConversationProtocol(id: WireProtocolId): id is ConversationProtocolId {
  return (conversationProtocolSchema.options as readonly string[]).includes(id);
}

export function isRerankProtocol(id: WireProtocolId): id is RerankProtocolId {
  return (rerankProtocolSchema.options as readonly string[]).includes(id);
}

/**
 * How a provider takes its credential: a bearer token, Anthropic's `x-api-key`, an AWS Signature V4 made
 * with the gateway's own AWS credentials (Bedrock: the function's role, locally the default chain or a
 * profile), or none (the offline mock).
 */
export const providerAuthSchema = z.enum(['bearer', 'x-api-key', 'aws-sigv4', 'none']);
export type ProviderAuth = z.infer<typeof providerAuthSchema>;

/**
 * The protocol family an administrator names with `provider set --protocol`: the wire protocols and the
 * authentication it stands for.
 */
export const providerFamilySchema = z.enum(['openai', 'anthropic', 'bedrock', 'cohere', 'jina', 'voyage']);
export type ProviderFamily = z.infer<typeof providerFamilySchema>;

/** Bedrock signs with AWS credentials unless the provider was given a Bedrock API key (then `bearer`). */
export const PROVIDER_FAMILIES: Readonly<Record<ProviderFamily, { protocols: WireProtocolId[]; auth: ProviderAuth }>> = {
  openai: { protocols: ['openai-chat'], auth: 'bearer' },
  anthropic: { protocols: ['anthropic-messages'], auth: 'x-api-key' },
  bedrock: { protocols: ['bedrock-anthropic-messages', 'bedrock-converse'], auth: 'aws-sigv4' },
  // Rerank APIs (their chat APIs, where they have one, live at other base URLs: another provider entry).
  cohere: { protocols: ['cohere-rerank'], auth: 'bearer' },
  jina: { protocols: ['jina-rerank'], auth: 'bearer' },
  voyage: { protocols: ['voyage-rerank'], auth: 'bearer' },
};

/** Where an AWS provider lives and whose credentials sign its calls. */
export const awsProviderSettingsSchema = z.object({
  region: awsRegionSchema,
  /** A named profile of the local AWS configuration; absent, the default chain (in Lambda: the function's role). */
  profile: z.string().min(1).optional(),
});
export type AwsProviderSettings = z.infer<typeof awsProviderSettingsSchema>;

/**
 * The OpenAI API a model is served by on its provider, when not every API of the provider serves it: a
 * Responses-only model (`responses`) is reached by chat and messages clients through translation.
 */
export const upstreamApiSchema = z.enum(['chat', 'responses']);
export type UpstreamApi = z.infer<typeof upstreamApiSchema>;

export const UPSTREAM_API_PROTOCOLS: Readonly<Record<UpstreamApi, WireProtocolId>> = {
  chat: 'openai-chat',
  responses: 'openai-responses',
};

/** What a model does, so a request reaches only models that serve its endpoint. */
export const modelKindSchema = z.enum(['chat', 'embedding', 'image', 'audio', 'rerank', 'video', 'moderation']);
export type ModelKind = z.infer<typeof modelKindSchema>;

export const projectSchema = z.object({
  projectId: projectIdSchema,
  name: z.string(),
  plan: z.enum(['active', 'inactive']),
  usageInjection: z.boolean(),
  failover: z.boolean(),
  mcp: z.boolean(),
  /** Other `/v1/*` routes pass through to the provider (off unless set: it exposes the provider's whole API). */
  passThrough: z.boolean().optional(),
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

/**
 * Items written before providers carried capabilities hold `protocol: openai|anthropic`: read as that
 * family's protocols and authentication.
 */
function withCapabilities(item: unknown): unknown {
  if (typeof item !== 'object' || item === null || 'protocols' in item || !('protocol' in item)) return item;
  const family = providerFamilySchema.safeParse(item.protocol);
  if (!family.success) return item;
  const { protocol: _legacy, ...rest } = item as Record<string, unknown>;
  return { ...rest, ...PROVIDER_FAMILIES[family.data] };
}

/** A provider configured on a project, with its capabilities. The API key lives in the secret store, never here. */
export const providerConfigSchema = z.preprocess(
  withCapabilities,
  z.object({
    provider: providerNameSchema,
    /** The wire protocols it serves; a request in another protocol reaches it through translation. */
    protocols: z.array(wireProtocolSchema).min(1),
    auth: providerAuthSchema,
    baseUrl: z.string(),
    /** Whether the secret store holds a key for it (the offline mock provider needs none). */
    hasApiKey: z.boolean(),
    /** Set for Bedrock providers: the region (and signing profile) of its runtime endpoint. */
    aws: awsProviderSettingsSchema.optional(),
    updatedAt: z.string(),
  }),
);
export type ProviderConfig = z.infer<typeof providerConfigSchema>;

/** A model on the project's allowlist: `provider/model`, where the model id may itself contain slashes. */
export const allowedModelSchema = z.object({
  slug: z.string(),
  provider: providerNameSchema,
  model: z.string().min(1),
  alias: z.string().optional(),
  /** What the model does; chat unless set (every model allowed before kinds existed was a chat model). */
  kind: modelKindSchema.default('chat'),
  /** Set by the admin; absent, the known-models table gives them (see known-models.ts), else unknown. */
  contextLength: z.number().int().positive().optional(),
  maxOutputTokens: z.number().int().positive().optional(),
  description: z.string().optional(),
  /** Set for a model only one of its provider's OpenAI APIs serves; absent, every protocol of the provider. */
  upstreamApi: upstreamApiSchema.optional(),
  /**
   * Set by the admin: whether the model is one of OpenAI's reasoning kind (an Azure deployment whose name
   * hides its model); absent, told by its id (reasoning-models.ts).
   */
  reasoning: z.boolean().optional(),
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
  /**
   * Price of prompt tokens written to a one-hour cache (`cache_control.ttl: "1h"`); absent, twice the input
   * price, Anthropic's rule (oneHourCacheWritePrice).
   */
  cacheWrite1hInputPriceMicrosPer1k: z.number().int().nonnegative().optional(),
  /**
   * Long prompts' prices (long-context-prices.ts): a request whose prompt has more tokens than this is
   * billed, all of it, at the long-context prices below, each absent one derived from the standard price.
   */
  longContextAboveTokens: z.number().int().positive().optional(),
  longContextInputPriceMicrosPer1k: z.number().int().nonnegative().optional(),
  longContextOutputPriceMicrosPer1k: z.number().int().nonnegative().optional(),
  longContextCachedInputPriceMicrosPer1k: z.number().int().nonnegative().optional(),
  longContextCacheWriteInputPriceMicrosPer1k: z.number().int().nonnegative().optional(),
  longContextCacheWrite1hInputPriceMicrosPer1k: z.number().int().nonnegative().optional(),
  // Prices beyond tokens (unit-prices.ts); free when absent.
  requestPriceMicros: z.number().int().nonnegative().optional(),
  imagePriceMicros: z.number().int().nonnegative().optional(),
  audioSecondPriceMicros: z.number().int().nonnegative().optional(),
  characterPriceMicrosPer1k: z.number().int().nonnegative().optional(),
  searchUnitPriceMicros: z.number().int().nonnegative().optional(),
  videoSecondPriceMicros: z.number().int().nonnegative().optional(),
  webSearchPriceMicros: z.number().int().nonnegative().optional(),
});
export type RateCardEntry = z.infer<typeof rateCardEntrySchema>;

/** Everything the request path needs about one project, loaded in one read and cached. */
export interface ProjectConfig {
  project: Project;
  providers: Map<string, ProviderConfig>;
  models: AllowedModel[];
  /** Project-level rate overrides by slug. */
  rates: Map<string, RateCardEntry>;
  /** The tool bridge's upstream servers by name; none when absent. */
  mcpServers?: Map<string, McpServerConfig>;
}

/** Organisation-level default prices by slug. */
export type OrgRateCard = Map<string, RateCardEntry>;

/** The project's price for a model: its own override wins over the organisation's default. */
export function effectiveRate(slug: string, config: ProjectConfig, orgRates: OrgRateCard): RateCardEntry {
  return (
    config.rates.get(slug) ?? orgRates.get(slug) ?? { slug, inputPriceMicrosPer1k: 0, outputPriceMicrosPer1k: 0 }
  );
}

/**
 * The protocols a model is reached by on its provider: the provider's own that serve the model (Bedrock
 * takes Anthropic's Messages body for Anthropic's models only), unless the model is served by one API only
 * (`upstreamApi`), which then is its only protocol.
 */
export function modelProtocols(model: Pick<AllowedModel, 'upstreamApi' | 'model'>, provider: Pick<ProviderConfig, 'protocols'>): WireProtocolId[] {
  if (model.upstreamApi) return [UPSTREAM_API_PROTOCOLS[model.upstreamApi]];
  return provider.protocols.filter((protocol) => protocol !== 'bedrock-anthropic-messages' || isAnthropicBedrockModel(model.model));
}

/** Splits `provider/model` at the first slash: `openrouter/openai/gpt-4o-mini` → openrouter + openai/gpt-4o-mini. */
export function splitModelSlug(slug: string): { provider: string; model: string } | undefined {
  const slash = slug.indexOf('/');
  if (slash <= 0 || slash === slug.length - 1) return undefined;
  return { provider: slug.slice(0, slash), model: slug.slice(slash + 1) };
}
