import { describe, expect, it } from 'vitest';
import { GatewayError } from '../../shared/core/errors.ts';
import { parseProviderPreferences } from '../../shared/core/provider-preferences.ts';

function refusal(value: unknown): GatewayError {
  try {
    parseProviderPreferences(value);
  } catch (error) {
    if (error instanceof GatewayError) return error;
    throw error;
  }
  throw new Error('expected a refusal');
}

describe('parseProviderPreferences', () => {
  it.each([[undefined], [null]])('reads %s as no preferences', (value) => {
    expect(parseProviderPreferences(value)).toEqual({});
  });

  it('accepts every supported field', () => {
    const preferences = {
      order: ['openai', 'openrouter'],
      allow_fallbacks: false,
      only: ['openai'],
      ignore: ['groq'],
      sort: { by: 'price', partition: 'model' },
      max_price: { prompt: 0.15, completion: 0.6 },
      require_parameters: true,
    };
    expect(parseProviderPreferences(preferences)).toEqual(preferences);
    expect(parseProviderPreferences({ sort: 'price' })).toEqual({ sort: 'price' });
  });

  it('reads provider names whatever their letter case, as OpenRouter takes its display names ("OpenAI")', () => {
    expect(parseProviderPreferences({ order: ['Anthropic', 'OpenAI'], only: ['Together'], ignore: ['GROQ'] })).toEqual({
      order: ['anthropic', 'openai'],
      only: ['together'],
      ignore: ['groq'],
    });
  });

  it('reads the names OpenRouter gives Bedrock, Google AI Studio and xAI ("Amazon Bedrock", "google-ai-studio", "x-ai") as the known providers they name, in their place', () => {
    expect(parseProviderPreferences({ order: ['Amazon Bedrock', 'Anthropic'], only: ['google-ai-studio'], ignore: ['x-ai'] })).toEqual({
      order: ['amazon bedrock', 'bedrock', 'anthropic'],
      only: ['google-ai-studio', 'gemini'],
      ignore: ['x-ai', 'xai'],
    });
  });

  it.each([
    [{ zdr: true }, 'provider.zdr'],
    [{ max_price: { prompt: 1, image: 2 } }, 'provider.max_price.image'],
  ])('refuses an unknown field with 400 naming it (%j)', (value, field) => {
    const error = refusal(value);
    expect(error.status).toBe(400);
    expect(error.code).toBe('invalid_provider_preferences');
    expect(error.param).toBe(field);
    expect(error.message).toContain(`Unknown field "${field}"`);
  });

  it('accepts data_collection "allow", OpenRouter\'s default that asks for nothing, and refuses "deny" it could not keep, saying why', () => {
    expect(parseProviderPreferences({ order: ['openai'], data_collection: 'allow' })).toEqual({ order: ['openai'], data_collection: 'allow' });
    const error = refusal({ order: ['openai'], data_collection: 'deny' });
    expect(error.status).toBe(400);
    expect(error.param).toBe('provider.data_collection');
    expect(error.message).toContain('only "allow" (the default) is accepted');
  });

  it.each(['throughput', 'latency', { by: 'throughput' }, { by: 'latency', partition: 'none' }])(
    'says a sort other than by price is not offered, and what is (%j)',
    (sort) => {
      const error = refusal({ sort });
      expect(error.param).toBe('provider.sort');
      expect(error.message).toContain('sorts by "price" only');
    },
  );

  it.each([
    [{ order: 'openai' }, 'provider.order'],
    [{ order: ['openai', ''] }, 'provider.order.1'],
    [{ allow_fallbacks: 'no' }, 'provider.allow_fallbacks'],
    [{ only: [1] }, 'provider.only.0'],
    [{ ignore: 'groq' }, 'provider.ignore'],
    [{ sort: 'latency' }, 'provider.sort'],
    [{ max_price: { prompt: -1 } }, 'provider.max_price.prompt'],
    [{ max_price: { completion: '0.6' } }, 'provider.max_price.completion'],
    [{ require_parameters: 1 }, 'provider.require_parameters'],
    ['openai', 'provider'],
    [['openai'], 'provider'],
  ])('refuses a value of the wrong type with 400 naming the field (%j)', (value, field) => {
    const error = refusal(value);
    expect(error.status).toBe(400);
    expect(error.code).toBe('invalid_provider_preferences');
    expect(error.param).toBe(field);
    expect(error.message).toMatch(new RegExp(`^Invalid field "${field.replace(/\./g, '\\.')}": `));
  });
});
