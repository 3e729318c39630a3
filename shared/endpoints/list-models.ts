import { effectiveModelLimits, findKnownModelLimits } from '../core/known-models.ts';
import type { AllowedModel, ModelKind, OrgRateCard, ProjectConfig, RateCardEntry } from '../core/project-config.ts';
import { LONG_CONTEXT_PRICES, LONG_CONTEXT_THRESHOLD, longContextRate } from '../core/long-context-prices.ts';
import { effectiveRate, modelProtocols } from '../core/project-config.ts';
import { supportedChatParameters, takesReasoningSettings } from '../core/provider-catalog.ts';
import { UNIT_PRICES, usdScale } from '../core/unit-prices.ts';
import { formatScaledInteger, microsPer1kToUsdPerToken } from '../core/usd-decimal.ts';
import * as z from 'zod';
import { GatewayError } from '../core/errors.ts';
import { jsonResponse, type GatewayRequest, type GatewayResponse } from '../http/gateway-http.ts';
import { admitRequest } from '../pipeline/admit-request.ts';
import { modelListFilter } from './model-list-filters.ts';
import type { GatewayServices } from '../pipeline/gateway-services.ts';

/**
 * Messages-style agent clients (Claude Code) send `anthropic-version` and a `claude-cli/` User-Agent;
 * their model picker keeps only ids that contain these names and reads the extra fields below.
 */
export function isMessagesStyleClient(request: GatewayRequest): boolean {
  const userAgent = request.headers['user-agent'] ?? '';
  return (
    userAgent.startsWith('claude-cli') ||
    request.headers['anthropic-version'] !== undefined ||
    request.headers['upstream-version'] !== undefined
  );
}

function isAnthropicFamily(slug: string): boolean {
  return slug.includes('claude') || slug.includes('anthropic');
}

/**
 * USD per token for tokens; beyond tokens USD per unit: `request` per request (always shown, "0" when free),
 * `image` per image, `audio` per second of audio, `character` per character spoken, `search_unit` per
 * rerank search unit, `video` per second of video (each shown when the rate card sets it).
 */
function describePricing(entry: AllowedModel, config: ProjectConfig, orgRates: OrgRateCard) {
  const rate = effectiveRate(entry.slug, config, orgRates);
  const units: Record<string, string> = { request: '0' };
  for (const price of UNIT_PRICES) {
    const micros = rate[price.rateField];
    if (micros !== undefined) units[price.pricingField] = formatScaledInteger(BigInt(micros), usdScale(price));
  }
  return {
    prompt: microsPer1kToUsdPerToken(rate.inputPriceMicrosPer1k),
    completion: microsPer1kToUsdPerToken(rate.outputPriceMicrosPer1k),
    ...units,
    ...(rate.cachedInputPriceMicrosPer1k !== undefined ? { input_cache_read: microsPer1kToUsdPerToken(rate.cachedInputPriceMicrosPer1k) } : {}),
    ...(rate.cacheWriteInputPriceMicrosPer1k !== undefined ? { input_cache_write: microsPer1kToUsdPerToken(rate.cacheWriteInputPriceMicrosPer1k) } : {}),
    ...(rate.cacheWrite1hInputPriceMicrosPer1k !== undefined ? { input_cache_write_1h: microsPer1kToUsdPerToken(rate.cacheWrite1hInputPriceMicrosPer1k) } : {}),
    ...describeLongContextPricing(rate),
  };
}

/**
 * The long-context tier's prices, when the rate card has one: those billed above its threshold (the entry's
 * `long_context_above_tokens`, outside `pricing`, which holds prices only), derived ones included, each named
 * after its standard field with `_long_context`.
 */
function describeLongContextPricing(rate: RateCardEntry): Record<string, string> {
  if (rate.longContextAboveTokens === undefined) return {};
  const long = longContextRate(rate);
  const described: Record<string, string> = {};
  for (const price of LONG_CONTEXT_PRICES) {
    const micros = long[price.standardField];
    if (micros !== undefined) described[price.pricingField] = microsPer1kToUsdPerToken(micros);
  }
  return described;
}

/** What a model of each kind takes and gives, in OpenRouter's words (`modality` is `input->output`). */
const MODALITIES: Record<ModelKind, { input: string[]; output: string[] }> = {
  chat: { input: ['text'], output: ['text'] },
  embedding: { input: ['text'], output: ['embeddings'] },
  image: { input: ['text', 'image'], output: ['image'] },
  audio: { input: ['text', 'audio'], output: ['text', 'audio'] },
  rerank: { input: ['text'], output: ['text'] },
  video: { input: ['text', 'image'], output: ['video'] },
  moderation: { input: ['text', 'image'], output: ['text'] },
};

/**
 * A model's modalities, OpenRouter's `architecture`. A chat model of the known table reads images too (every
 * one it lists does: GPT-4o and later, o3, o4-mini, Claude 4 and later); another chat model is said to read
 * text, which is all the gateway knows of it.
 */
function architectureOf(entry: AllowedModel) {
  const { output } = MODALITIES[entry.kind];
  const input = entry.kind === 'chat' && findKnownModelLimits(entry.model) ? ['text', 'image'] : MODALITIES[entry.kind].input;
  return { modality: `${input.join('+')}->${output.join('+')}`, input_modalities: input, output_modalities: output };
}

/** One entry of the model list, in OpenRouter's shape (docs/decisions/model-list.md). */
export function describeModel(entry: AllowedModel, config: ProjectConfig, orgRates: OrgRateCard) {
  const limits = effectiveModelLimits(entry);
  const provider = config.providers.get(entry.provider);
  const protocols = provider ? modelProtocols(entry, provider) : ['openai-chat' as const];
  return {
    id: entry.slug,
    object: 'model',
    name: entry.alias ? `${entry.alias} (${entry.slug})` : entry.slug,
    canonical_slug: entry.slug,
    created: Math.floor(Date.parse(entry.createdAt) / 1000),
    owned_by: entry.provider,
    ...(entry.alias ? { alias: entry.alias } : {}),
    description: entry.description ?? `${entry.model} from ${entry.provider}${entry.alias ? `, alias "${entry.alias}"` : ''}.`,
    context_length: limits.contextLength,
    pricing: describePricing(entry, config, orgRates),
    // Prompts of more tokens than this are billed at pricing's `*_long_context` prices, all of it.
    ...longContextThresholdOf(effectiveRate(entry.slug, config, orgRates)),
    architecture: architectureOf(entry),
    top_provider: { context_length: limits.contextLength, max_completion_tokens: limits.maxOutputTokens, is_moderated: false },
    per_request_limits: null,
    supported_parameters: entry.kind === 'chat' ? supportedChatParameters(entry.provider, protocols, !provider || takesReasoningSettings(provider, entry)) : [],
  };
}

/** The entry with the fields Anthropic's model list adds, for messages-style clients. */
export function describeModelForMessagesClient(entry: AllowedModel, config: ProjectConfig, orgRates: OrgRateCard) {
  return { ...describeModel(entry, config, orgRates), type: 'model', display_name: entry.alias ?? entry.model, created_at: entry.createdAt };
}

/** GET /v1/models: exactly the project's allowlist (or what OpenRouter's filters keep of it), priced from its rate card. */
export async function handleListModels(request: GatewayRequest, services: GatewayServices): Promise<GatewayResponse> {
  const { config, orgRates } = await admitRequest(request, services, 'models');
  const kept = modelListFilter(request.query);
  const sorted = [...config.models].filter((entry) => kept(describeModel(entry, config, orgRates))).sort((a, b) => a.slug.localeCompare(b.slug));

  if (!isMessagesStyleClient(request)) {
    return jsonResponse(200, { object: 'list', data: sorted.map((entry) => describeModel(entry, config, orgRates)) });
  }
  const family = sorted.filter((entry) => isAnthropicFamily(entry.slug));
  const { page, hasMore } = pageOf(family, readPageQuery(request.query));
  const data = page.map((entry) => describeModelForMessagesClient(entry, config, orgRates));
  return jsonResponse(200, {
    object: 'list',
    data,
    has_more: hasMore,
    first_id: data[0]?.id ?? null,
    last_id: data.at(-1)?.id ?? null,
  });
}

/** Anthropic's paging of the model list: `limit` (1–1000, 20 unless given), then `after_id` or `before_id`. */
const pageQuerySchema = z.object({
  limit: z.coerce.number().int().min(1).max(1000).default(20),
  after_id: z.string().min(1).optional(),
  before_id: z.string().min(1).optional(),
});

type PageQuery = z.infer<typeof pageQuerySchema>;

function readPageQuery(query: URLSearchParams): PageQuery {
  const parsed = pageQuerySchema.safeParse(Object.fromEntries(['limit', 'after_id', 'before_id'].flatMap((name) => (query.has(name) ? [[name, query.get(name)]] : []))));
  if (!parsed.success) {
    const field = String(parsed.error.issues[0]?.path[0] ?? 'limit');
    throw new GatewayError('invalid_request', `Invalid query parameter "${field}": ${field === 'limit' ? 'an integer from 1 to 1000' : 'a model id'} is expected.`, { code: 'invalid_request_query', param: field });
  }
  return parsed.data;
}

/** The page of `entries` the query asks for, and whether more follow in its direction. */
function pageOf(entries: AllowedModel[], query: PageQuery): { page: AllowedModel[]; hasMore: boolean } {
  const positionOf = (id: string, param: string) => {
    const index = entries.findIndex((entry) => entry.slug === id);
    if (index < 0) throw new GatewayError('invalid_request', `Invalid query parameter "${param}": no model "${id}" in this list.`, { code: 'invalid_request_query', param });
    return index;
  };
  if (query.before_id !== undefined) {
    const end = positionOf(query.before_id, 'before_id');
    const start = Math.max(0, end - query.limit);
    return { page: entries.slice(start, end), hasMore: start > 0 };
  }
  const start = query.after_id === undefined ? 0 : positionOf(query.after_id, 'after_id') + 1;
  return { page: entries.slice(start, start + query.limit), hasMore: start + query.limit < entries.length };
}

function longContextThresholdOf(rate: RateCardEntry): Record<string, number> {
  return rate.longContextAboveTokens === undefined ? {} : { [LONG_CONTEXT_THRESHOLD.listName]: rate.longContextAboveTokens };
}
