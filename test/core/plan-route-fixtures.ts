import { planRoute, type RouteRequest } from '../../shared/core/plan-route.ts';
import type { AllowedModel, ModelKind, OrgRateCard, ProjectConfig, ProviderConfig, RateCardEntry, WireProtocolId } from '../../shared/core/project-config.ts';

export { gatewayErrorThrownBy as refusal } from '../support/gateway-error-thrown.ts';

/** The projects and requests the route planner's tests share (plan-route*.test.ts). */
export const AT = '2025-01-01T00:00:00.000Z';

export function provider(name: string, options: { protocol?: WireProtocolId; hasApiKey?: boolean } = {}): ProviderConfig {
  return { provider: name, protocols: [options.protocol ?? 'openai-chat'], auth: 'bearer', baseUrl: `https://${name}.example/v1`, hasApiKey: options.hasApiKey ?? true, updatedAt: AT };
}

export function allowed(slug: string, alias?: string, kind: ModelKind = 'chat'): AllowedModel {
  const slash = slug.indexOf('/');
  return { slug, provider: slug.slice(0, slash), model: slug.slice(slash + 1), kind, createdAt: AT, ...(alias ? { alias } : {}) };
}

export function rate(slug: string, input: number, output: number): RateCardEntry {
  return { slug, inputPriceMicrosPer1k: input, outputPriceMicrosPer1k: output };
}

export const MINI = ['openai/gpt-4o-mini', 'openrouter/openai/gpt-4o-mini', 'together/openai/gpt-4o-mini'];

export function config(options: { providers?: ProviderConfig[]; models?: AllowedModel[]; rates?: RateCardEntry[] } = {}): ProjectConfig {
  const providers = options.providers ?? ['openai', 'openrouter', 'together', 'groq', 'mistral'].map((name) => provider(name));
  return {
    project: { projectId: 'acme', name: 'acme', plan: 'active', usageInjection: false, failover: false, mcp: false, createdAt: AT, updatedAt: AT },
    providers: new Map(providers.map((entry) => [entry.provider, entry])),
    models: options.models ?? [...MINI.map((slug) => allowed(slug)), allowed('groq/llama-3.3-70b', 'llama'), allowed('mistral/mistral-small')],
    rates: new Map((options.rates ?? []).map((entry) => [entry.slug, entry])),
  };
}

export const NO_ORG_RATES: OrgRateCard = new Map();

export function plan(request: Partial<RouteRequest>, projectConfig = config(), orgRates = NO_ORG_RATES): string[] {
  const full: RouteRequest = {
    model: 'openai/gpt-4o-mini',
    fallbackModels: [],
    failoverEnabled: true,
    preferences: {},
    protocols: ['openai-chat'],
    modelKinds: ['chat'],
    parameters: ['model', 'messages'],
    isCoolingDown: () => false,
    ...request,
  };
  return planRoute(full, projectConfig, orgRates).map((target) => target.model.slug);
}

