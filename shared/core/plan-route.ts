import { GatewayError, toGatewayError } from './errors.ts';
import type { AllowedModel, ModelKind, OrgRateCard, ProjectConfig, ProviderConfig, RateCardEntry, WireProtocolId } from './project-config.ts';
import { effectiveRate, modelProtocols } from './project-config.ts';
import { canAuthorizeCalls, takesReasoningSettings, unsupportedRequestParameters } from './provider-catalog.ts';
import type { ProviderPreferences } from './provider-preferences.ts';
import { readModelVariant } from './model-variant.ts';
import { findModelGroup, modelNotAllowed } from './resolve-model.ts';

/** One upstream to try: an allowlisted model, the provider that serves it, and its price. */
export interface RouteTarget {
  model: AllowedModel;
  /** The provider as it serves this model: its protocols are the model's (see modelProtocols). */
  provider: ProviderConfig;
  rate: RateCardEntry;
}

export interface RouteRequest {
  model: string;
  /** The request's fallback models (`models`), tried in order when failover applies. */
  fallbackModels: readonly string[];
  /** `route: "fallback"` or the project's failover flag. */
  failoverEnabled: boolean;
  preferences: ProviderPreferences;
  /** The wire protocols the endpoint can reach, natively or by translation; providers speaking none are skipped. */
  protocols: readonly WireProtocolId[];
  /** Why the endpoint reaches only those protocols (a native-only endpoint), told when no model speaks one. */
  onlyThoseProtocolsBecause?: string;
  /** The kinds of model the endpoint serves (a chat request never reaches an embedding model). */
  modelKinds: readonly ModelKind[];
  /** The top-level parameters of the request body, for `require_parameters`. */
  parameters: readonly string[];
  /** Targets that failed recently are tried last. */
  isCoolingDown: (slug: string) => boolean;
}

/** Why a candidate was left out, for the error when nothing remains. */
type Exclusion = string | undefined;
const NOT_FOR_THIS_ENDPOINT = 'which this endpoint does not serve';

function exclusionOf(entry: AllowedModel, config: ProjectConfig, rate: RateCardEntry, request: RouteRequest): Exclusion {
  const { preferences } = request;
  const provider = config.providers.get(entry.provider);
  if (!provider) return `provider "${entry.provider}" is not configured`;
  if (!canAuthorizeCalls(provider)) return `provider "${entry.provider}" has no credential`;
  if (!request.modelKinds.includes(entry.kind)) return `${/^[aeiou]/.test(entry.kind) ? 'an' : 'a'} ${entry.kind} model, ${NOT_FOR_THIS_ENDPOINT}`;
  const protocols = modelProtocols(entry, provider);
  if (!protocols.some((protocol) => request.protocols.includes(protocol))) {
    return `served over ${protocols.join(', ')}, ${NOT_FOR_THIS_ENDPOINT}`;
  }
  if (preferences.only && !preferences.only.includes(entry.provider)) return 'not in provider.only';
  if (preferences.ignore?.includes(entry.provider)) return 'in provider.ignore';
  // `order` with `allow_fallbacks: false` names the only providers the client accepts (OpenRouter's rule):
  // a model none of them serves is not served at all, never by a provider the client did not name.
  if (preferences.allow_fallbacks === false && preferences.order?.length && !preferences.order.includes(entry.provider)) {
    return 'not in provider.order, and provider.allow_fallbacks is false';
  }
  const maxPrice = preferences.max_price;
  // micro-USD per 1k tokens / 1000 = USD per million tokens.
  if (maxPrice?.prompt !== undefined && rate.inputPriceMicrosPer1k / 1000 > maxPrice.prompt) return 'prompt price above provider.max_price';
  if (maxPrice?.completion !== undefined && rate.outputPriceMicrosPer1k / 1000 > maxPrice.completion) return 'completion price above provider.max_price';
  if (preferences.require_parameters) {
    const unsupported = unsupportedRequestParameters(entry.provider, protocols, takesReasoningSettings(provider, entry), request.parameters);
    if (unsupported.length > 0) return `provider "${entry.provider}" does not support ${unsupported.join(', ')}`;
  }
  return undefined;
}

function servingProvider(entry: AllowedModel, provider: ProviderConfig): ProviderConfig {
  return { ...provider, protocols: modelProtocols(entry, provider) };
}

/** Orders one model's providers: `order` first (in its order), then by price if asked, cooling-down targets last. */
function orderGroup(targets: RouteTarget[], request: RouteRequest): RouteTarget[] {
  const order = request.preferences.order ?? [];
  const rank = (target: RouteTarget) => {
    const index = order.indexOf(target.provider.provider);
    return index < 0 ? order.length : index;
  };
  const price = (target: RouteTarget) => target.rate.inputPriceMicrosPer1k + target.rate.outputPriceMicrosPer1k;
  const sortByPrice = request.preferences.sort !== undefined;
  const sortTargets = (coolingDownLast: boolean) =>
    targets
      .map((target, position) => ({ target, position }))
      .sort(
        (a, b) =>
          (coolingDownLast ? Number(request.isCoolingDown(a.target.model.slug)) - Number(request.isCoolingDown(b.target.model.slug)) : 0) ||
          rank(a.target) - rank(b.target) ||
          (sortByPrice ? price(a.target) - price(b.target) : 0) ||
          a.position - b.position,
      )
      .map(({ target }) => target);
  const sorted = sortTargets(true);
  if (request.preferences.allow_fallbacks === false) {
    // Only the providers the client named (exclusionOf left no other), or without `order` only the first one,
    // cooling down or not: their error is returned as it is.
    return order.length > 0 ? sorted : sortTargets(false).slice(0, 1);
  }
  return sorted;
}

/**
 * Plans which upstreams to try, in order: the named model's providers, then (with failover) each model of
 * `models`. Models not on the allowlist are skipped and reported if nothing routable remains.
 */
export function planRoute(request: RouteRequest, config: ProjectConfig, orgRates: OrgRateCard): RouteTarget[] {
  // `models` may repeat the model (OpenRouter's `models` alone names it first): each name is planned once.
  const names = request.failoverEnabled ? [...new Set([request.model, ...request.fallbackModels])] : [request.model];
  const targets: RouteTarget[] = [];
  const reasons: string[] = [];
  for (const name of names) {
    // A routing shortcut (`:floor`) is the client's preference, for this model: a shortcut refused refuses the request.
    const variant = readModelVariant(name, config.models);
    let group: AllowedModel[];
    try {
      group = findModelGroup(variant.model, config.models);
    } catch (thrown) {
      const error = toGatewayError(thrown);
      // A single named model keeps its own status (404 not allowed, 400 ambiguous).
      if (names.length === 1) throw error;
      reasons.push(`"${name}": ${error.code === 'model_not_allowed' ? 'not on the allowlist' : error.message}`);
      continue;
    }
    const eligible: RouteTarget[] = [];
    for (const entry of group) {
      const rate = effectiveRate(entry.slug, config, orgRates);
      const excluded = exclusionOf(entry, config, rate, request);
      if (excluded) reasons.push(`"${entry.slug}": ${excluded}`);
      else eligible.push({ model: entry, provider: servingProvider(entry, config.providers.get(entry.provider) as ProviderConfig), rate });
    }
    const groupRequest = variant.sortByPrice ? { ...request, preferences: { ...request.preferences, sort: 'price' as const } } : request;
    for (const target of orderGroup(eligible, groupRequest)) {
      if (!targets.some((known) => known.model.slug === target.model.slug)) targets.push(target);
    }
  }
  if (targets.length === 0) {
    if (reasons.length > 0 && reasons.every((reason) => reason.endsWith('not on the allowlist'))) throw modelNotAllowed(request.model, config.models);
    if (reasons.length > 0 && reasons.every((reason) => reason.endsWith(NOT_FOR_THIS_ENDPOINT))) {
      const because = request.onlyThoseProtocolsBecause ? ` ${request.onlyThoseProtocolsBecause}` : '';
      throw new GatewayError('invalid_request', `The model is not served on this endpoint: ${reasons.join('; ')}.${because}`, {
        code: 'model_unsupported_for_endpoint',
        param: 'model',
      });
    }
    throw new GatewayError('invalid_request', `No routable model: ${reasons.join('; ')}.`, { code: 'no_routable_model', param: 'model' });
  }
  return request.failoverEnabled ? targets : targets.slice(0, 1);
}

/**
 * A provider as the target of a request that names no model (a pass-through to its files API, say): priced
 * at the rate card's `<provider>/*` entry, if there is one.
 */
export function providerTarget(provider: string, config: ProjectConfig, orgRates: OrgRateCard): RouteTarget {
  const configured = config.providers.get(provider);
  if (!configured) {
    throw new GatewayError('invalid_request', `Provider "${provider}" is not configured on this project.`, { code: 'provider_not_configured', param: 'provider' });
  }
  if (!canAuthorizeCalls(configured)) {
    throw new GatewayError('invalid_request', `Provider "${provider}" has no credential on this project.`, { code: 'no_routable_model', param: 'provider' });
  }
  const slug = `${provider}/*`;
  return { model: { slug, provider, model: '*', kind: 'chat', createdAt: configured.updatedAt }, provider: configured, rate: effectiveRate(slug, config, orgRates) };
}
