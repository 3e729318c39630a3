import { describe, expect, it } from 'vitest';
import { planRoute, type RouteRequest } from '../../shared/core/plan-route.ts';
import type { AllowedModel, ProviderConfig } from '../../shared/core/project-config.ts';
import { allowed, config, MINI, NO_ORG_RATES, plan, provider, rate, refusal } from './plan-route-fixtures.ts';

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
