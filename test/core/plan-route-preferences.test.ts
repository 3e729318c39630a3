import { describe, expect, it } from 'vitest';
import type { OrgRateCard } from '../../shared/core/project-config.ts';
import { allowed, config, plan, provider, rate, refusal } from './plan-route-fixtures.ts';

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
    // Another server's model may reason whatever its id: it keeps the reasoning settings.
    const groq = config({ providers: [provider('groq')], models: [allowed('groq/deepseek-r1-distill')] });
    expect(plan({ model: 'groq/deepseek-r1-distill', parameters: ['model', 'messages', 'reasoning', 'include_reasoning'], preferences: { require_parameters: true } }, groq)).toEqual(['groq/deepseek-r1-distill']);
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
