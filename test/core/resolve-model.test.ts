import { describe, expect, it } from 'vitest';
import { gatewayErrorThrownBy as thrown } from '../support/gateway-error-thrown.ts';
import type { AllowedModel } from '../../shared/core/project-config.ts';
import { findAllowedModel, findModelGroup } from '../../shared/core/resolve-model.ts';

const CREATED = '2025-01-01T00:00:00.000Z';

function allowed(slug: string, alias?: string): AllowedModel {
  const slash = slug.indexOf('/');
  return { slug, provider: slug.slice(0, slash), model: slug.slice(slash + 1), kind: 'chat', createdAt: CREATED, ...(alias ? { alias } : {}) };
}


const models = [
  allowed('openai/gpt-4o-mini', 'fast'),
  allowed('openrouter/openai/gpt-4o-mini'),
  allowed('groq/llama-3.1-8b-instant'),
  allowed('mock/echo'),
];

describe('findAllowedModel', () => {
  it('finds an entry by its provider-prefixed slug', () => {
    expect(findAllowedModel('openrouter/openai/gpt-4o-mini', models).provider).toBe('openrouter');
  });

  it('finds an entry by its project alias', () => {
    expect(findAllowedModel('fast', models).slug).toBe('openai/gpt-4o-mini');
  });

  it('finds an entry by bare model id when exactly one entry carries it', () => {
    expect(findAllowedModel('llama-3.1-8b-instant', models).slug).toBe('groq/llama-3.1-8b-instant');
  });

  it('prefers an exact slug over a bare id that other entries share', () => {
    // "openai/gpt-4o-mini" is a slug and also the bare id of the openrouter entry.
    expect(findAllowedModel('openai/gpt-4o-mini', models).provider).toBe('openai');
  });

  it('refuses a bare id offered by several providers with 400 ambiguous_model naming the slugs', () => {
    const twice = [allowed('openai/gpt-4o'), allowed('azure/gpt-4o')];
    const error = thrown(() => findAllowedModel('gpt-4o', twice));
    expect(error.status).toBe(400);
    expect(error.code).toBe('ambiguous_model');
    expect(error.param).toBe('model');
    expect(error.message).toBe('The model "gpt-4o" is offered by several providers of this project; name one of "openai/gpt-4o", "azure/gpt-4o".');
  });

  it('refuses a model that is not on the allowlist with 404 model_not_allowed', () => {
    const error = thrown(() => findAllowedModel('anthropic/claude-opus-4', models));
    expect(error.status).toBe(404);
    expect(error.code).toBe('model_not_allowed');
    expect(error.param).toBe('model');
    expect(error.message).toBe(
      'The model "anthropic/claude-opus-4" is not allowed for this project. GET /v1/models lists the models it may use.',
    );
  });

  it('names the allowed model a typo most likely meant', () => {
    const error = thrown(() => findAllowedModel('openai/gpt-4o-mnii', models));
    expect(error.code).toBe('model_not_allowed');
    expect(error.message).toBe(
      'The model "openai/gpt-4o-mnii" is not allowed for this project. Did you mean "openai/gpt-4o-mini"? GET /v1/models lists the models it may use.',
    );
  });

  it('refuses every model when the allowlist is empty', () => {
    expect(thrown(() => findAllowedModel('mock/echo', [])).code).toBe('model_not_allowed');
  });
});

describe('findModelGroup', () => {
  it('puts the named entry first, then the other providers of the same model', () => {
    const group = findModelGroup('openrouter/openai/gpt-4o-mini', models);
    expect(group.map((entry) => entry.slug)).toEqual(['openrouter/openai/gpt-4o-mini', 'openai/gpt-4o-mini']);
  });

  it('resolves a bare id offered by several providers of the same model to the model own provider first', () => {
    expect(findModelGroup('gpt-4o-mini', models).map((entry) => entry.slug)).toEqual(['openai/gpt-4o-mini', 'openrouter/openai/gpt-4o-mini']);
  });

  it('holds only the named entry when no other provider offers its model', () => {
    expect(findModelGroup('mock/echo', models).map((entry) => entry.slug)).toEqual(['mock/echo']);
  });
});

describe("findAllowedModel with a Claude model's dated snapshot and undated alias", () => {
  it('admits the dated id Claude Code sends under the undated entry, priced as the entry, the upstream getting the dated id', () => {
    const found = findAllowedModel('claude-haiku-4-5-20251001', [allowed('anthropic/claude-haiku-4-5')]);
    expect(found).toMatchObject({ slug: 'anthropic/claude-haiku-4-5', model: 'claude-haiku-4-5-20251001' });
    expect(findAllowedModel('anthropic/claude-opus-4-1-20250805', [allowed('anthropic/claude-opus-4-1')])).toMatchObject({ slug: 'anthropic/claude-opus-4-1', model: 'claude-opus-4-1-20250805' });
  });

  it('admits the undated alias under a dated entry, the upstream getting the allowed snapshot', () => {
    expect(findAllowedModel('claude-haiku-4-5', [allowed('anthropic/claude-haiku-4-5-20251001')])).toMatchObject({
      slug: 'anthropic/claude-haiku-4-5-20251001',
      model: 'claude-haiku-4-5-20251001',
    });
  });

  it('never admits another snapshot, a snapshot the catalog does not list, or another provider', () => {
    const dated = [allowed('anthropic/claude-opus-4-20250514')];
    expect(thrown(() => findAllowedModel('claude-opus-4-1-20250805', dated)).code).toBe('model_not_allowed');
    expect(thrown(() => findAllowedModel('claude-haiku-4-5-20991231', [allowed('anthropic/claude-haiku-4-5')])).code).toBe('model_not_allowed');
    expect(thrown(() => findAllowedModel('other/claude-haiku-4-5-20251001', [allowed('anthropic/claude-haiku-4-5')])).code).toBe('model_not_allowed');
  });

  it('keeps the entry once in its group', () => {
    const group = findModelGroup('claude-haiku-4-5-20251001', [allowed('anthropic/claude-haiku-4-5'), allowed('mock/echo')]);
    expect(group.map((entry) => entry.slug)).toEqual(['anthropic/claude-haiku-4-5']);
  });
});
