import { describe, expect, it } from 'vitest';
import { createMessagesRouteGroup } from '../../shared/endpoints/messages-route-group.ts';
import { createOpenAiRouteGroup } from '../../shared/endpoints/openai-route-group.ts';
import type { GatewayRequest } from '../../shared/http/gateway-http.ts';
import { createFakeGateway, FAKE_KEY, fakeProvider } from '../support/fake-gateway-services.ts';
import { readFixture } from '../support/fixtures.ts';

function request(method: string, path: string, body: unknown = undefined): GatewayRequest {
  return { method, path, query: new URLSearchParams(), headers: { authorization: `Bearer ${FAKE_KEY}` }, body: Buffer.from(body === undefined ? '' : JSON.stringify(body)), sourceIp: '127.0.0.1' };
}

/** Both route groups over in-memory services: an OpenAI-compatible provider and an Anthropic one. */
function gateway() {
  return createFakeGateway({
    providers: [fakeProvider('openai', ['openai-chat']), fakeProvider('anthropic', ['anthropic-messages'], 'x-api-key')],
    models: [{ slug: 'openai/gpt-4o-mini' }, { slug: 'anthropic/claude-haiku-4-5' }],
    fetch: async (url) =>
      url.endsWith('/messages')
        ? new Response(readFixture('anthropic/messages-nonstream-text.json'), { headers: { 'content-type': 'application/json' } })
        : new Response(readFixture('openai-chat/chat-nonstream-text-usage-details.json'), { headers: { 'content-type': 'application/json' } }),
  });
}

describe('the OpenAI-compatible route group', () => {
  it('serves /health without a key and every response carries x-request-id', async () => {
    const serve = createOpenAiRouteGroup(gateway().services);
    const response = await serve({ ...request('GET', '/health'), headers: {} });
    expect(response.status).toBe(200);
    expect(response.headers['x-request-id']).toMatch(/^gen-/);
  });

  it("answers a chat completion for an Anthropic model in the chat shape, naming the provider's own model", async () => {
    const fake = gateway();
    const response = await createOpenAiRouteGroup(fake.services)(request('POST', '/v1/chat/completions', { model: 'anthropic/claude-haiku-4-5', messages: [{ role: 'user', content: 'Hi' }] }));
    expect(response.status).toBe(200);
    expect(JSON.parse(String(response.body))).toMatchObject({ object: 'chat.completion', model: 'claude-sonnet-4-5-20250929', choices: [{ message: { role: 'assistant' } }] });
    expect(fake.records).toHaveLength(1);
  });

  it('answers HEAD like GET without a body, and reads repeated slashes as one', async () => {
    const serve = createOpenAiRouteGroup(gateway().services);
    const head = await serve({ ...request('HEAD', '/health'), headers: {} });
    expect(head.status).toBe(200);
    expect(head.body).toBe('');
    const models = await serve(request('GET', '//v1//models/'));
    expect(models.status).toBe(200);
    expect(JSON.parse(String(models.body))).toMatchObject({ object: 'list' });
  });

  it('renders an unknown path as a 404 in OpenAI error format', async () => {
    const response = await createOpenAiRouteGroup(gateway().services)(request('GET', '/v1/nothing-here'));
    expect(response.status).toBe(404);
    expect(JSON.parse(String(response.body))).toEqual({ error: { message: expect.any(String), type: 'not_found_error', code: 'not_found', param: null } });
  });
});

describe('the messages route group', () => {
  it('answers /v1/messages for an OpenAI model in the messages shape', async () => {
    const fake = gateway();
    const response = await createMessagesRouteGroup(fake.services)(request('POST', '/v1/messages', { model: 'openai/gpt-4o-mini', max_tokens: 50, messages: [{ role: 'user', content: 'Hi' }] }));
    expect(response.status).toBe(200);
    expect(JSON.parse(String(response.body))).toMatchObject({ type: 'message', model: 'gpt-4.1-nano-2025-04-14', content: [{ type: 'text' }] });
    expect(fake.records[0]).toMatchObject({ endpoint: 'messages', status: 'completed' });
  });

  it('renders a missing key as a 401 in Anthropic error format', async () => {
    const response = await createMessagesRouteGroup(gateway().services)({ ...request('POST', '/v1/messages', {}), headers: {} });
    expect(response.status).toBe(401);
    expect(JSON.parse(String(response.body))).toMatchObject({ type: 'error', error: { type: 'authentication_error' } });
  });
});

describe('the path a route is chosen by', () => {
  /** A project with pass-through on and an access policy without embeddings or messages; every upstream call noted. */
  function passThroughGateway() {
    const upstreamUrls: string[] = [];
    const fake = createFakeGateway({
      providers: [fakeProvider('openai', ['openai-chat'])],
      models: [{ slug: 'openai/gpt-4o-mini' }, { slug: 'openai/text-embedding-3-small', kind: 'embedding' }],
      project: { passThrough: true },
      fetch: async (url) => {
        upstreamUrls.push(url);
        return new Response(JSON.stringify({ object: 'list', data: [{ object: 'embedding', index: 0, embedding: [0.5] }], model: 'text-embedding-3-small', usage: { prompt_tokens: 2, total_tokens: 2 } }), {
          headers: { 'content-type': 'application/json' },
        });
      },
    });
    return { ...fake, upstreamUrls };
  }

  it.each(['/v1//messages', '//v1/messages/', '/v1/%6Dessages', '/v1//messages/count_tokens', '//v1/editor/chat/completions'])(
    'never passes %s through: normalised, it is a route of another route group (404, no upstream call, nothing metered)',
    async (path) => {
      const fake = passThroughGateway();
      const response = await createOpenAiRouteGroup(fake.services)(request('POST', path, { model: 'openai/gpt-4o-mini', max_tokens: 5, stream: true, messages: [{ role: 'user', content: 'Hi' }] }));
      expect(response.status).toBe(404);
      expect(JSON.parse(String(response.body))).toMatchObject({ error: { type: 'not_found_error', code: 'not_found', message: expect.stringContaining('never as pass-through') } });
      expect(fake.upstreamUrls).toEqual([]);
      expect(fake.records).toEqual([]);
    },
  );

  it('never passes /v1/v1/… through: it names the base URL that repeats /v1 (404, no upstream call, nothing metered)', async () => {
    const fake = passThroughGateway();
    const response = await createOpenAiRouteGroup(fake.services)(request('POST', '/v1/v1/messages', { model: 'openai/gpt-4o-mini', max_tokens: 5, messages: [{ role: 'user', content: 'Hi' }] }));
    expect(response.status).toBe(404);
    expect(JSON.parse(String(response.body))).toMatchObject({ error: { code: 'not_found', message: expect.stringContaining('The path repeats /v1') } });
    expect(fake.upstreamUrls).toEqual([]);
    expect(fake.records).toEqual([]);
  });

  it('answers a path without /v1 with a 404 that says the base URL lacks it', async () => {
    const response = await createOpenAiRouteGroup(passThroughGateway().services)(request('POST', '/chat/completions', { model: 'openai/gpt-4o-mini', messages: [] }));
    expect(response.status).toBe(404);
    expect(JSON.parse(String(response.body)).error.message).toMatch(/^The gateway does not serve POST \/chat\/completions\. The gateway's routes start with \/v1/);
  });

  it('serves /v1/%65mbeddings as the embeddings route, metered as embeddings, not passed through', async () => {
    const fake = passThroughGateway();
    const response = await createOpenAiRouteGroup(fake.services)(request('POST', '/v1/%65mbeddings', { model: 'openai/text-embedding-3-small', input: 'hi' }));
    expect(response.status).toBe(200);
    expect(fake.upstreamUrls).toEqual(['https://openai.example/v1/embeddings']);
    expect(fake.records[0]).toMatchObject({ endpoint: 'embeddings', promptTokens: 2 });
  });

  it('still passes through a path no route of the gateway serves', async () => {
    const fake = passThroughGateway();
    const response = await createOpenAiRouteGroup(fake.services)(request('POST', '/v1//fim/completions/', { model: 'openai/gpt-4o-mini', prompt: 'x' }));
    expect(response.status).toBe(200);
    expect(fake.upstreamUrls).toEqual(['https://openai.example/v1/fim/completions']);
    expect(fake.records[0]).toMatchObject({ endpoint: 'passthrough' });
  });
});
