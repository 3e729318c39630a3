import { describe, expect, it } from 'vitest';
import { GatewayError } from '../../shared/core/errors.ts';
import { planRoute, type RouteRequest } from '../../shared/core/plan-route.ts';
import type { AllowedModel, ModelKind, OrgRateCard, ProjectConfig, ProviderConfig, RateCardEntry, WireProtocolId } from '../../shared/core/project-config.ts';

const AT = '2025-01-01T00:00:00.000Z';

function provider(name: string, options: { protocol?: WireProtocolId; hasApiKey?: boolean } = {}): ProviderConfig {
  return { provider: name, protocols: [options.protocol ?? 'openai-chat'], auth: 'bearer', baseUrl: `https://${name}.example/v1`, hasApiKey: options.hasApiKey ?? true, updatedAt: AT };
}

function allowed(slug: string, alias?: string, kind: ModelKind = 'chat'): AllowedModel {
  const slash = slug.indexOf('/');
  return { slug, provider: slug.slice(0, slash), model: slug.slice(slash + 1), kind, createdAt: AT, ...(alias ? { alias } : {}) };
}

function rate(slug: string, input: number, output: number): RateCardEntry {
  return { slug, inputPriceMicrosPer1k: input, outputPriceMicrosPer1k: output };
}

const MINI = ['openai/gpt-4o-mini', 'openrouter/openai/gpt-4o-mini', 'together/openai/gpt-4o-mini'];

function config(options: { providers?: ProviderConfig[]; models?: AllowedModel[]; rates?: RateCardEntry[] } = {}): ProjectConfig {
  const providers = options.providers ?? ['openai', 'openrouter', 'together', 'groq', 'mistral'].map((name) => provider(name));
  return {
    project: { projectId: 'acme', name: 'acme', plan: 'active', usageInjection: false, failover: false, mcp: false, createdAt: AT, updatedAt: AT },
    providers: new Map(providers.map((entry) => [entry.provider, entry])),
    models: options.models ?? [...MINI.map((slug) => allowed(slug)), allowed('groq/llama-3.3-70b', 'llama'), allowed('mistral/mistral-small')],
    rates: new Map((options.rates ?? []).map((entry) => [entry.slug, entry])),
  };
}

const NO_ORG_RATES: OrgRateCard = new Map();

function plan(request: Partial<RouteRequest>, projectConfig = config(), orgRates = NO_ORG_RATES): string[] {
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

function refusal(fn: () => unknown): GatewayError {
  try {
    fn();
  } catch (error) {
    if (error instanceof GatewayError) return error;
    throw error;
  }
  throw new Error('expected a refusal');
}

describe('model groups', () => {
  it('treats the same model under several providers as one group, the named provider first', () => {
    expect(plan({ model: 'openrouter/openai/gpt-4o-mini' })).toEqual(['openrouter/openai/gpt-4o-mini', 'openai/gpt-4o-mini', 'together/openai/gpt-4o-mini']);
    expect(plan({ model: 'gpt-4o-mini' })).toEqual(MINI);
  });

  it('plans exactly one target, the named one, when failover is disabled', () => {
    expect(plan({ model: 'together/openai/gpt-4o-mini', failoverEnabled: false, fallbackModels: ['groq/llama-3.3-70b'] })).toEqual(['together/openai/gpt-4o-mini']);
  });

  it('tries the other providers of the same model first, then each model of `models` in order, without duplicates', () => {
    const fallbackModels = ['mistral/mistral-small', 'llama', 'openai/gpt-4o-mini', 'groq/llama-3.3-70b'];
    expect(plan({ fallbackModels })).toEqual([...MINI, 'mistral/mistral-small', 'groq/llama-3.3-70b']);
  });

  it('ignores `models` when failover is disabled', () => {
    expect(plan({ failoverEnabled: false, fallbackModels: ['mistral/mistral-small'] })).toEqual(['openai/gpt-4o-mini']);
  });
});

describe('provider preferences', () => {
  it('puts the providers of `order` first, in that order', () => {
    expect(plan({ preferences: { order: ['together', 'openrouter'] } })).toEqual(['together/openai/gpt-4o-mini', 'openrouter/openai/gpt-4o-mini', 'openai/gpt-4o-mini']);
  });

  it('with allow_fallbacks false keeps only the ordered providers', () => {
    expect(plan({ preferences: { order: ['together', 'openrouter'], allow_fallbacks: false } })).toEqual(['together/openai/gpt-4o-mini', 'openrouter/openai/gpt-4o-mini']);
  });

  it('with allow_fallbacks false never routes to a provider `order` does not name, even when it names none of the model\'s', () => {
    const error = refusal(() => plan({ preferences: { order: ['azure'], allow_fallbacks: false } }));
    expect(error.code).toBe('no_routable_model');
    expect(error.message).toContain('"openai/gpt-4o-mini": not in provider.order, and provider.allow_fallbacks is false');
    expect(refusal(() => plan({ failoverEnabled: false, preferences: { order: ['azure'], allow_fallbacks: false } })).code).toBe('no_routable_model');
    // A model of `models` none of the named providers serves is skipped; one they serve is still tried.
    expect(plan({ model: 'mistral/mistral-small', fallbackModels: ['gpt-4o-mini'], preferences: { order: ['together'], allow_fallbacks: false } })).toEqual(['together/openai/gpt-4o-mini']);
  });

  it('with allow_fallbacks false and no order keeps only the first provider', () => {
    expect(plan({ model: 'openrouter/openai/gpt-4o-mini', preferences: { allow_fallbacks: false } })).toEqual(['openrouter/openai/gpt-4o-mini']);
  });

  it('keeps only the providers of `only` and drops those of `ignore`', () => {
    expect(plan({ preferences: { only: ['openrouter', 'together'] } })).toEqual(['openrouter/openai/gpt-4o-mini', 'together/openai/gpt-4o-mini']);
    expect(plan({ preferences: { ignore: ['openai'] } })).toEqual(['openrouter/openai/gpt-4o-mini', 'together/openai/gpt-4o-mini']);
  });

  it.each([['price' as const], [{ by: 'price' as const }]])('sorts a model\'s providers by price with sort %j', (sort) => {
    const rates = [rate('openai/gpt-4o-mini', 150, 600), rate('openrouter/openai/gpt-4o-mini', 160, 640), rate('together/openai/gpt-4o-mini', 100, 400)];
    expect(plan({ preferences: { sort } }, config({ rates }))).toEqual(['together/openai/gpt-4o-mini', 'openai/gpt-4o-mini', 'openrouter/openai/gpt-4o-mini']);
  });

  it('reads organisation rates when the project has no override of its own', () => {
    const orgRates: OrgRateCard = new Map([['openai/gpt-4o-mini', rate('openai/gpt-4o-mini', 900, 900)]]);
    expect(plan({ preferences: { sort: 'price' } }, config(), orgRates)).toEqual(['openrouter/openai/gpt-4o-mini', 'together/openai/gpt-4o-mini', 'openai/gpt-4o-mini']);
  });

  it('compares max_price in USD per million tokens with rates in micro-USD per 1k tokens', () => {
    // 150 micro-USD per 1k tokens = 0.15 USD per million; 600 = 0.60.
    const rates = [rate('openai/gpt-4o-mini', 150, 600), rate('openrouter/openai/gpt-4o-mini', 151, 600), rate('together/openai/gpt-4o-mini', 150, 601)];
    const projectConfig = config({ rates });
    expect(plan({ preferences: { max_price: { prompt: 0.15 } } }, projectConfig)).toEqual(['openai/gpt-4o-mini', 'together/openai/gpt-4o-mini']);
    expect(plan({ preferences: { max_price: { completion: 0.6 } } }, projectConfig)).toEqual(['openai/gpt-4o-mini', 'openrouter/openai/gpt-4o-mini']);
    expect(plan({ preferences: { max_price: { prompt: 0.15, completion: 0.6 } } }, projectConfig)).toEqual(['openai/gpt-4o-mini']);
  });

  it('with require_parameters skips providers that do not support a parameter of the request', () => {
    const models = [allowed('openai/llama-3.3-70b'), allowed('groq/llama-3.3-70b'), allowed('together/llama-3.3-70b')];
    const request = { model: 'groq/llama-3.3-70b', parameters: ['model', 'messages', 'logprobs'] };
    // Two entries of the same bare id under different providers are different models, so add `models`.
    const fallbackModels = ['openai/llama-3.3-70b', 'together/llama-3.3-70b'];
    expect(plan({ ...request, fallbackModels }, config({ models }))).toEqual(['groq/llama-3.3-70b', 'openai/llama-3.3-70b', 'together/llama-3.3-70b']);
    expect(plan({ ...request, fallbackModels, preferences: { require_parameters: true } }, config({ models }))).toEqual(['openai/llama-3.3-70b', 'together/llama-3.3-70b']);
  });

  it('with require_parameters skips a model whose translation drops a parameter, and reasoning settings for a chat model that does not reason', () => {
    const providers = [provider('openai'), provider('anthropic', { protocol: 'anthropic-messages' })];
    const models = [allowed('anthropic/claude-sonnet-4-5'), allowed('openai/gpt-4o-mini'), allowed('openai/o4-mini')];
    const projectConfig = config({ providers, models });
    const planned = (model: string, parameters: string[]) =>
      plan(
        { model, fallbackModels: models.map((entry) => entry.slug).filter((slug) => slug !== model), protocols: ['openai-chat', 'anthropic-messages'], parameters: ['model', 'messages', ...parameters], preferences: { require_parameters: true } },
        projectConfig,
      );

    // Claude's translation drops logprobs: the model list says so, and require_parameters follows it.
    expect(planned('anthropic/claude-sonnet-4-5', ['logprobs'])).toEqual(['openai/gpt-4o-mini', 'openai/o4-mini']);
    expect(planned('openai/gpt-4o-mini', ['reasoning'])).toEqual(['anthropic/claude-sonnet-4-5', 'openai/o4-mini']);
    // Parameters no list names (messages, stream, user…) every provider takes.
    expect(planned('openai/gpt-4o-mini', ['stream', 'user'])).toEqual(['openai/gpt-4o-mini', 'anthropic/claude-sonnet-4-5', 'openai/o4-mini']);
  });

  it('refuses with 400 no_routable_model giving each reason when the preferences leave nothing', () => {
    const error = refusal(() => plan({ preferences: { only: ['groq'] } }));
    expect(error.status).toBe(400);
    expect(error.code).toBe('no_routable_model');
    expect(error.message).toBe(
      'No routable model: "openai/gpt-4o-mini": not in provider.only; "openrouter/openai/gpt-4o-mini": not in provider.only; "together/openai/gpt-4o-mini": not in provider.only.',
    );
  });
});

describe("OpenRouter's model-id shortcuts", () => {
  const rates = [rate('openai/gpt-4o-mini', 150, 600), rate('openrouter/openai/gpt-4o-mini', 100, 500), rate('together/openai/gpt-4o-mini', 120, 900)];

  it('takes `:floor` off the model and sorts its providers cheapest first, as provider.sort "price"', () => {
    expect(plan({ model: 'openai/gpt-4o-mini:floor', failoverEnabled: false }, config({ rates }))).toEqual(['openrouter/openai/gpt-4o-mini']);
    // Input plus output price: 600, 750, 1020.
    expect(plan({ model: 'gpt-4o-mini:floor' }, config({ rates }))).toEqual(['openrouter/openai/gpt-4o-mini', 'openai/gpt-4o-mini', 'together/openai/gpt-4o-mini']);
  });

  it('reads `:floor` on an alias, and on each fallback model for that model alone', () => {
    const models = [allowed('openai/gpt-4o-mini', 'fast'), allowed('openrouter/openai/gpt-4o-mini'), allowed('groq/llama-3.3-70b')];
    const projectConfig = config({ models, rates });
    expect(plan({ model: 'fast:floor', failoverEnabled: false }, projectConfig)).toEqual(['openrouter/openai/gpt-4o-mini']);
    expect(plan({ model: 'groq/llama-3.3-70b', fallbackModels: ['fast:floor'] }, projectConfig)).toEqual(['groq/llama-3.3-70b', 'openrouter/openai/gpt-4o-mini', 'openai/gpt-4o-mini']);
    expect(plan({ model: 'fast', fallbackModels: ['groq/llama-3.3-70b:floor'] }, projectConfig)).toEqual(['openai/gpt-4o-mini', 'openrouter/openai/gpt-4o-mini', 'groq/llama-3.3-70b']);
  });

  it('refuses `:nitro`, a sort by throughput, with 400 saying only price is offered', () => {
    for (const model of ['openai/gpt-4o-mini:nitro', 'gpt-4o-mini:nitro']) {
      const error = refusal(() => plan({ model }));
      expect([error.status, error.code, error.param]).toEqual([400, 'invalid_provider_preferences', 'model']);
      expect(error.message).toContain('sorts by "price" only');
    }
    expect(refusal(() => plan({ fallbackModels: ['mistral/mistral-small:nitro'] }))).toMatchObject({ status: 400, code: 'invalid_provider_preferences' });
  });

  it('keeps a name the allowlist holds as it is, suffix and all', () => {
    const models = [allowed('ollama/qwen3:floor'), allowed('ollama/qwen3'), allowed('ollama/llama3:8b', 'speedy:nitro')];
    const projectConfig = config({ providers: [provider('ollama')], models });
    expect(plan({ model: 'ollama/qwen3:floor' }, projectConfig)).toEqual(['ollama/qwen3:floor']);
    expect(plan({ model: 'speedy:nitro' }, projectConfig)).toEqual(['ollama/llama3:8b']);
  });

  it('answers 404 model_not_allowed for `:floor` on a model not on the allowlist', () => {
    expect(refusal(() => plan({ model: 'openai/gpt-5:floor' }))).toMatchObject({ status: 404, code: 'model_not_allowed' });
  });
});

describe('eligibility', () => {
  it('skips models of `models` that are not on the allowlist', () => {
    expect(plan({ fallbackModels: ['anthropic/claude-opus-4', 'groq/llama-3.3-70b'], preferences: { only: ['groq'] } })).toEqual(['groq/llama-3.3-70b']);
  });

  it('lists the models it skipped when nothing routable remains', () => {
    const error = refusal(() => plan({ fallbackModels: ['anthropic/claude-opus-4'], preferences: { ignore: ['openai', 'openrouter', 'together'] } }));
    expect(error.status).toBe(400);
    expect(error.code).toBe('no_routable_model');
    expect(error.message).toContain('"openai/gpt-4o-mini": in provider.ignore');
    expect(error.message).toContain('"anthropic/claude-opus-4": not on the allowlist');
  });

  it('weighs a model that `models` repeats once: its refusal is named once, and alone keeps its own status', () => {
    const error = refusal(() => plan({ model: 'mistral/mistral-small', fallbackModels: ['mistral/mistral-small', 'anthropic/claude-opus-4'], preferences: { ignore: ['mistral'] } }));
    expect(error.message.match(/"mistral\/mistral-small": in provider.ignore/g)).toHaveLength(1);
    expect(refusal(() => plan({ model: 'openai/gpt-5', fallbackModels: ['openai/gpt-5'] }))).toMatchObject({ status: 404, code: 'model_not_allowed' });
  });

  it('refuses with 404 model_not_allowed when no name given is on the allowlist', () => {
    for (const failoverEnabled of [true, false]) {
      const error = refusal(() => plan({ model: 'openai/gpt-5', fallbackModels: ['anthropic/claude-opus-4'], failoverEnabled }));
      expect(error.status).toBe(404);
      expect(error.code).toBe('model_not_allowed');
      expect(error.message).toContain('"openai/gpt-5"');
    }
  });

  it('refuses a model served only over another protocol with 400 model_unsupported_for_endpoint', () => {
    const projectConfig = config({ providers: [provider('anthropic', { protocol: 'anthropic-messages' })], models: [allowed('anthropic/claude-haiku-4-5')] });
    const error = refusal(() => plan({ model: 'anthropic/claude-haiku-4-5' }, projectConfig));
    expect(error.status).toBe(400);
    expect(error.code).toBe('model_unsupported_for_endpoint');
    expect(plan({ model: 'anthropic/claude-haiku-4-5', protocols: ['anthropic-messages'] }, projectConfig)).toEqual(['anthropic/claude-haiku-4-5']);
  });

  it('says why a native-only endpoint reaches only its protocols when the model speaks none of them', () => {
    const projectConfig = config({ providers: [provider('anthropic', { protocol: 'anthropic-messages' })], models: [allowed('anthropic/claude-haiku-4-5')] });
    const error = refusal(() => plan({ model: 'anthropic/claude-haiku-4-5', protocols: ['openai-responses'], onlyThoseProtocolsBecause: 'Its output only OpenAI can read.' }, projectConfig));
    expect(error.code).toBe('model_unsupported_for_endpoint');
    expect(error.message).toMatch(/served over anthropic-messages, which this endpoint does not serve\. Its output only OpenAI can read\.$/);
  });

  it('refuses a model of another kind (an embedding model on a chat endpoint) with 400 model_unsupported_for_endpoint', () => {
    const projectConfig = config({ models: [allowed('openai/text-embedding-3-small', undefined, 'embedding')] });
    const error = refusal(() => plan({ model: 'openai/text-embedding-3-small' }, projectConfig));
    expect(error.status).toBe(400);
    expect(error.code).toBe('model_unsupported_for_endpoint');
    expect(error.message).toContain('an embedding model');
    expect(plan({ model: 'openai/text-embedding-3-small', modelKinds: ['embedding'] }, projectConfig)).toEqual(['openai/text-embedding-3-small']);
  });

  it('excludes providers without a credential, except the offline mock', () => {
    const providers = [provider('openai'), provider('openrouter', { hasApiKey: false }), provider('together'), provider('mock', { hasApiKey: false })];
    const models = [...MINI.map((slug) => allowed(slug)), allowed('mock/echo')];
    expect(plan({ fallbackModels: ['mock/echo'] }, config({ providers, models }))).toEqual(['openai/gpt-4o-mini', 'together/openai/gpt-4o-mini', 'mock/echo']);
    const error = refusal(() => plan({ model: 'openrouter/openai/gpt-4o-mini', preferences: { only: ['openrouter'] } }, config({ providers, models })));
    expect(error.message).toContain('provider "openrouter" has no credential');
  });

  it('excludes a model whose provider is not configured', () => {
    const error = refusal(() => plan({ model: 'mistral/mistral-small' }, config({ providers: [provider('openai')] })));
    expect(error.code).toBe('no_routable_model');
    expect(error.message).toContain('provider "mistral" is not configured');
  });
});

describe('cool-down', () => {
  it('tries cooling-down targets last among the providers of a model, even ahead of `order`', () => {
    const isCoolingDown = (slug: string) => slug === 'openai/gpt-4o-mini' || slug === 'together/openai/gpt-4o-mini';
    expect(plan({ isCoolingDown, preferences: { order: ['together'] } })).toEqual(['openrouter/openai/gpt-4o-mini', 'together/openai/gpt-4o-mini', 'openai/gpt-4o-mini']);
  });

  it('routes to another provider of the model when the named one cools down and failover is disabled', () => {
    expect(plan({ failoverEnabled: false, isCoolingDown: (slug) => slug === 'openai/gpt-4o-mini' })).toEqual(['openrouter/openai/gpt-4o-mini']);
  });

  it('keeps the only allowed provider under allow_fallbacks false even while it cools down', () => {
    const isCoolingDown = (slug: string) => slug === 'openai/gpt-4o-mini';
    expect(plan({ isCoolingDown, preferences: { allow_fallbacks: false } })).toEqual(['openai/gpt-4o-mini']);
    expect(plan({ isCoolingDown, preferences: { allow_fallbacks: false, order: ['openai'] } })).toEqual(['openai/gpt-4o-mini']);
  });

  it('still tries a cooling-down target when it is the only one', () => {
    expect(plan({ model: 'mistral/mistral-small', isCoolingDown: () => true })).toEqual(['mistral/mistral-small']);
  });
});

describe('planRoute: models served by one OpenAI API', () => {
  const openai: ProviderConfig = { ...provider('openai'), protocols: ['openai-chat', 'openai-responses'] };
  const responsesOnly: AllowedModel = { ...allowed('openai/o3-pro'), upstreamApi: 'responses' };
  const request: RouteRequest = {
    model: 'openai/o3-pro',
    fallbackModels: [],
    failoverEnabled: false,
    preferences: {},
    protocols: ['openai-chat', 'anthropic-messages', 'openai-responses'],
    modelKinds: ['chat'],
    parameters: [],
    isCoolingDown: () => false,
  };

  it('gives the target only the Responses protocol, so chat and messages clients reach it through translation', () => {
    const [target] = planRoute(request, config({ providers: [openai], models: [responsesOnly] }), NO_ORG_RATES);
    expect(target?.provider.protocols).toEqual(['openai-responses']);
    expect(target?.provider.baseUrl).toBe(openai.baseUrl);
  });

  it('leaves the provider its protocols for models without the mark', () => {
    const [target] = planRoute({ ...request, model: 'openai/gpt-5' }, config({ providers: [openai], models: [allowed('openai/gpt-5')] }), NO_ORG_RATES);
    expect(target?.provider.protocols).toEqual(['openai-chat', 'openai-responses']);
  });

  it('says the model is not served on an endpoint that cannot reach its API', () => {
    const error = refusal(() => planRoute({ ...request, protocols: ['openai-chat'] }, config({ providers: [openai], models: [responsesOnly] }), NO_ORG_RATES));
    expect(error).toMatchObject({ code: 'model_unsupported_for_endpoint', message: expect.stringContaining('served over openai-responses') });
  });
});
