import { describe, expect, it } from 'vitest';
import type { StoredResponseOwner } from '../../shared/core/ports.ts';
import { routeToStoredResponse } from '../../shared/endpoints/route-to-stored-response.ts';
import type { ProjectConfig } from '../../shared/core/project-config.ts';
import { createFakeGateway, fakeProvider } from '../support/fake-gateway-services.ts';

/** A project with three providers, whose gateway remembers one stored response, `resp_1`, made by `owner`. */
async function withConfig(owner: StoredResponseOwner | undefined) {
  const { services } = createFakeGateway({
    providers: [fakeProvider('openai', ['openai-chat', 'openai-responses']), fakeProvider('openrouter', ['openai-chat', 'openai-responses']), fakeProvider('groq', ['openai-chat'])],
    models: [{ slug: 'openai/gpt-5' }, { slug: 'openrouter/openai/gpt-5' }, { slug: 'groq/llama-3.3-70b' }],
    fetch: async () => new Response(null, { status: 500 }),
  });
  services.generations = { findGeneration: async () => undefined, findStoredResponse: async (id) => (id === 'resp_1' ? owner : undefined) };
  return { services, config: (await services.projects.loadProjectConfig('acme')) as ProjectConfig };
}

const owner = (projectId: string, provider = 'openrouter'): StoredResponseOwner => ({ projectId, provider, model: `${provider}/openai/gpt-5`, requestId: 'gen-1' });

describe('routeToStoredResponse', () => {
  it('leaves a request without previous_response_id, or naming an id the gateway has not recorded, as it is', async () => {
    const routing = await withConfig(owner('acme'));
    const plain = { model: 'gpt-5', input: 'x' };
    expect(await routeToStoredResponse(plain, routing)).toBe(plain);
    const unknown = { model: 'gpt-5', input: 'x', previous_response_id: 'resp_unrecorded' };
    expect(await routeToStoredResponse(unknown, routing)).toBe(unknown);
  });

  it('names the provider that stored the response as the only one, keeping the client’s other preferences', async () => {
    const routed = await routeToStoredResponse({ model: 'gpt-5', input: 'x', previous_response_id: 'resp_1', provider: { sort: 'price' } }, await withConfig(owner('acme')));
    expect(routed.provider).toEqual({ sort: 'price', only: ['openrouter'] });
  });

  it('answers 404 for a response another project made', async () => {
    await expect(routeToStoredResponse({ model: 'gpt-5', input: 'x', previous_response_id: 'resp_1' }, await withConfig(owner('someone-else')))).rejects.toMatchObject({
      status: 404,
      code: 'previous_response_not_found',
    });
  });

  it('answers 400 naming the provider when the model, or the client’s provider.only, cannot reach it', async () => {
    const routing = await withConfig(owner('acme'));
    await expect(routeToStoredResponse({ model: 'groq/llama-3.3-70b', input: 'x', previous_response_id: 'resp_1' }, routing)).rejects.toMatchObject({
      status: 400,
      code: 'previous_response_provider_mismatch',
      message: expect.stringContaining('stored by provider "openrouter"'),
    });
    await expect(routeToStoredResponse({ model: 'gpt-5', input: 'x', previous_response_id: 'resp_1', provider: { only: ['openai'] } }, routing)).rejects.toMatchObject({
      code: 'previous_response_provider_mismatch',
    });
  });
});
