import { describe, expect, it } from 'vitest';
import { coolDownKey } from '../../shared/pipeline/failover.ts';
import { chatCompletionsEndpoint } from '../../shared/endpoints/chat-completions.ts';
import { embeddingsEndpoint } from '../../shared/endpoints/embeddings.ts';
import { messagesEndpoint } from '../../shared/endpoints/messages.ts';
import { responsesEndpoint } from '../../shared/endpoints/responses.ts';
import type { ProviderConfig } from '../../shared/core/project-config.ts';
import type { UpstreamFetch } from '../../shared/core/ports.ts';
import type { GatewayRequest } from '../../shared/http/gateway-http.ts';
import type { GenerationEndpoint, RoutableBody } from '../../shared/pipeline/generation-endpoint.ts';
import { runGeneration } from '../../shared/pipeline/run-generation.ts';
import { createFakeGateway, FAKE_KEY, fakeProvider } from '../support/fake-gateway-services.ts';
import { readFixture } from '../support/fixtures.ts';

const UPSTREAM_KEY = 'sk-upstream-0123456789';
const route = { requestId: 'gen-invalid-answer', receivedAt: Date.now() };
const json = (body: string) => new Response(body, { headers: { 'content-type': 'application/json' } });
/** A 200 whose body is an error object, its message echoing the provider key, as some relays answer. */
const errorIn200 = () => json(JSON.stringify({ error: { message: `Upstream quota exhausted for key ${UPSTREAM_KEY}`, type: 'server_error' } }));
const anthropicErrorIn200 = () => json(readFixture('anthropic/messages-error-529-overloaded.json'));
const htmlIn200 = () => new Response('<html><body>502 Bad Gateway</body></html>', { headers: { 'content-type': 'text/html' } });
const chatAnswer = () => json(readFixture('openai-chat/chat-nonstream-text-usage-details.json'));

const hello = [{ role: 'user', content: 'Hi' }];
const chat = { path: '/v1/chat/completions', body: { model: 'pc/m', messages: hello } };
const messages = { path: '/v1/messages', body: { model: 'pc/m', max_tokens: 10, messages: hello } };
const responses = { path: '/v1/responses', body: { model: 'pc/m', input: 'Hi' } };

function request(call: { path: string; body: Record<string, unknown> }, extra: Record<string, unknown> = {}): GatewayRequest {
  return { method: 'POST', path: call.path, query: new URLSearchParams(), headers: { authorization: `Bearer ${FAKE_KEY}` }, body: Buffer.from(JSON.stringify({ ...call.body, ...extra })), sourceIp: '127.0.0.1' };
}

function gateway(protocols: ProviderConfig['protocols'], fetch: UpstreamFetch) {
  const fake = createFakeGateway({ providers: [fakeProvider('pc', protocols), fakeProvider('backup', ['openai-chat'])], models: [{ slug: 'pc/m' }, { slug: 'backup/m2' }], fetch });
  return fake;
}

async function failure<Body extends RoutableBody>(endpoint: GenerationEndpoint<Body>, fake: ReturnType<typeof gateway>, call: GatewayRequest) {
  return runGeneration(endpoint, call, fake.services, route).then(
    (response) => ({ status: response.status, body: String(response.body) }),
    (thrown: unknown) => thrown,
  );
}

describe('a 200 whose body is no answer of the upstream protocol', () => {
  it.each([
    ['a native chat completion', ['openai-chat'], chatCompletionsEndpoint, chat, errorIn200],
    ['a native response', ['openai-responses'], responsesEndpoint, responses, errorIn200],
    ['a chat completion translated to Anthropic', ['anthropic-messages'], chatCompletionsEndpoint, chat, anthropicErrorIn200],
    ['a response translated to Anthropic', ['anthropic-messages'], responsesEndpoint, responses, anthropicErrorIn200],
    ['a message translated to chat', ['openai-chat'], messagesEndpoint, messages, errorIn200],
    ['a native message', ['anthropic-messages'], messagesEndpoint, messages, anthropicErrorIn200],
  ] as const)('fails %s with 502 upstream_invalid_response, metered failed with no completion', async (_what, protocols, endpoint, call, answer) => {
    const fake = gateway([...protocols], async () => answer());
    const error = await failure(endpoint as GenerationEndpoint<RoutableBody>, fake, request(call));
    expect(error).toMatchObject({ status: 502, code: 'upstream_invalid_response' });
    expect(fake.records).toHaveLength(1);
    expect(fake.records[0]).toMatchObject({ status: 'failed', httpStatus: 502, errorCode: 'upstream_invalid_response', completionTokens: 0, estimated: true });
  });

  it("keeps the upstream's own message, without the provider key", async () => {
    const fake = gateway(['openai-chat'], async () => errorIn200());
    const error = (await failure(chatCompletionsEndpoint, fake, request(chat))) as Error;
    expect(error.message).toBe('Provider "pc" answered with an error instead of an answer: Upstream quota exhausted for key [redacted]');
  });

  it.each([
    ['an error object', errorIn200],
    ['an HTML page', htmlIn200],
  ])('with route "fallback", moves on from %s to the next target and cools the first down', async (_what, answer) => {
    const fake = gateway(['openai-chat'], async (_url, init) => (String(init?.body).includes('"m2"') ? chatAnswer() : answer()));
    const response = await runGeneration(chatCompletionsEndpoint, request(chat, { route: 'fallback', models: ['backup/m2'] }), fake.services, route);
    expect(response.status).toBe(200);
    expect(response.headers['x-gateway-model']).toBe('backup/m2');
    expect(fake.records[0]).toMatchObject({ status: 'completed', model: 'backup/m2', fallbackAttempts: 1 });
    expect(fake.services.coolDown.isCoolingDown(coolDownKey('acme', 'pc/m'))).toBe(true);
  });

  it('lists it among the attempts when every target fails, and records the prompt only when the last one took the request', async () => {
    const overloaded = () => new Response('{"error":{"message":"overloaded"}}', { status: 503, headers: { 'content-type': 'application/json' } });
    const fake = gateway(['openai-chat'], async (_url, init) => (String(init?.body).includes('"m2"') ? overloaded() : errorIn200()));
    const error = await failure(chatCompletionsEndpoint, fake, request(chat, { route: 'fallback', models: ['backup/m2'] }));
    expect((error as Error).message).toMatch(/^All 2 attempts failed: "pc\/m": Provider "pc" answered with an error instead of an answer: .* \| "backup\/m2": Provider "backup" failed with HTTP 503/);
    expect(fake.records[0]).toMatchObject({ status: 'failed', errorCode: 'upstream_error', model: 'backup/m2', promptTokens: 0, completionTokens: 0 });
  });

  it('leaves the answers of the endpoints beyond conversations to their own readers', async () => {
    const fake = createFakeGateway({
      providers: [fakeProvider('openai', ['openai-chat'])],
      models: [{ slug: 'openai/text-embedding-3-small', kind: 'embedding' }],
      fetch: async () => json(readFixture('other/openai-embeddings-float.json')),
    });
    const call = request({ path: '/v1/embeddings', body: { model: 'openai/text-embedding-3-small', input: 'Hi' } });
    const response = await runGeneration(embeddingsEndpoint, call, fake.services, route);
    expect(response.status).toBe(200);
    expect(fake.records[0]).toMatchObject({ status: 'completed' });
  });
});
