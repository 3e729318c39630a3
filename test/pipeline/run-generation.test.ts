import { describe, expect, it } from 'vitest';
import { GatewayError } from '../../shared/core/errors.ts';
import { chatCompletionsEndpoint } from '../../shared/endpoints/chat-completions.ts';
import { completionsEndpoint } from '../../shared/endpoints/completions.ts';
import { messagesEndpoint } from '../../shared/endpoints/messages.ts';
import { asWebStream, type GatewayRequest } from '../../shared/http/gateway-http.ts';
import { runGeneration } from '../../shared/pipeline/run-generation.ts';
import { createFakeGateway, FAKE_KEY, fakeProvider } from '../support/fake-gateway-services.ts';
import { readFixture } from '../support/fixtures.ts';

const chatAnswer = readFixture('openai-chat/chat-nonstream-text-usage-details.json');

function request(body: Record<string, unknown>, path = '/v1/chat/completions'): GatewayRequest {
  return { method: 'POST', path, query: new URLSearchParams(), headers: { authorization: `Bearer ${FAKE_KEY}` }, body: Buffer.from(JSON.stringify(body)), sourceIp: '127.0.0.1' };
}

const route = { requestId: 'gen-unit-1', receivedAt: Date.now() };
const hello = { model: 'openai/gpt-4o-mini', messages: [{ role: 'user', content: 'Hi' }] };

describe('runGeneration', () => {
  it('answers a native chat completion and hands over exactly one completed record', async () => {
    const fake = createFakeGateway({ providers: [fakeProvider('openai', ['openai-chat'])], models: [{ slug: 'openai/gpt-4o-mini' }], fetch: async () => new Response(chatAnswer, { headers: { 'content-type': 'application/json' } }) });
    const response = await runGeneration(chatCompletionsEndpoint, request(hello), fake.services, route);
    expect(response.status).toBe(200);
    expect(response.body).toBe(chatAnswer);
    expect(fake.records).toHaveLength(1);
    expect(fake.records[0]).toMatchObject({ status: 'completed', endpoint: 'chat.completions', model: 'openai/gpt-4o-mini', promptTokens: 16, completionTokens: 363 });
  });

  it('reads a JSON answer whole without asking for its body as a stream (the transport makes one only when asked)', async () => {
    let streamsAskedFor = 0;
    const answer = () => {
      const response = new Response(chatAnswer, { headers: { 'content-type': 'application/json' } });
      const body = Object.getOwnPropertyDescriptor(Response.prototype, 'body')?.get;
      return Object.defineProperty(response, 'body', { get: () => (streamsAskedFor++, body?.call(response)) });
    };
    const fake = createFakeGateway({ providers: [fakeProvider('openai', ['openai-chat'])], models: [{ slug: 'openai/gpt-4o-mini' }], fetch: async () => answer() });

    const response = await runGeneration(chatCompletionsEndpoint, request(hello), fake.services, route);

    expect(response.body).toBe(chatAnswer);
    expect(streamsAskedFor).toBe(0);
  });

  it('records an internal failure after the upstream answered as one failed record (500), and rethrows it', async () => {
    const prepaid = createFakeGateway({ providers: [fakeProvider('openai', ['openai-chat'])], models: [{ slug: 'openai/gpt-4o-mini' }], fetch: async () => new Response(chatAnswer), balanceNanos: 1_000_000 });
    const bug = () => {
      throw new TypeError('a bug while answering');
    };
    const buggy = { ...chatCompletionsEndpoint, clientProtocol: { ...chatCompletionsEndpoint.clientProtocol, presentNativeResponse: bug } };
    await expect(runGeneration(buggy, request(hello), prepaid.services, route)).rejects.toMatchObject({ status: 500, code: 'internal_error', cause: expect.objectContaining({ message: 'a bug while answering' }) });
    expect(prepaid.records).toHaveLength(1);
    expect(prepaid.records[0]).toMatchObject({ status: 'failed', httpStatus: 500, errorCode: 'internal_error' });
    expect(prepaid.records[0]?.reservedNanos).toBe(prepaid.reservedNanos());
  });

  describe('the id the client finds in the answer, recorded to look the generation up by', () => {
    const chatId = (JSON.parse(chatAnswer) as { id: string }).id;
    const messagesOnGpt = { model: 'openai/gpt-4o-mini', max_tokens: 10, messages: [{ role: 'user', content: 'Hi' }] };
    const openai = () => createFakeGateway({ providers: [fakeProvider('openai', ['openai-chat'])], models: [{ slug: 'openai/gpt-4o-mini' }], fetch: async () => new Response(chatAnswer, { headers: { 'content-type': 'application/json' } }) });

    it("is a native completion's own id, the upstream's", async () => {
      const fake = openai();
      await runGeneration(chatCompletionsEndpoint, request(hello), fake.services, route);
      expect(fake.records[0]).toMatchObject({ upstreamId: chatId, answerId: chatId });
    });

    it("is a translated message's msg_ id, made of the request id", async () => {
      const fake = openai();
      const response = await runGeneration(messagesEndpoint, request(messagesOnGpt, '/v1/messages'), fake.services, route);
      expect((JSON.parse(String(response.body)) as { id: string }).id).toBe('msg_genunit1');
      expect(fake.records[0]).toMatchObject({ upstreamId: chatId, answerId: 'msg_genunit1' });
    });

    it("is the id of the stream the gateway wrote, not the upstream's, when a native upstream answered a streamed request whole", async () => {
      const message = readFixture('anthropic/messages-nonstream-text.json');
      const fake = createFakeGateway({
        providers: [fakeProvider('anthropic', ['anthropic-messages'], 'x-api-key')],
        models: [{ slug: 'anthropic/claude-haiku-4-5' }],
        fetch: async () => new Response(message, { headers: { 'content-type': 'application/json' } }),
      });
      const streamed = { model: 'anthropic/claude-haiku-4-5', max_tokens: 10, stream: true, messages: [{ role: 'user', content: 'Hi' }] };
      const response = await runGeneration(messagesEndpoint, request(streamed, '/v1/messages'), fake.services, route);
      expect(await new Response(response.body as ReadableStream).text()).toContain('"id":"msg_genunit1"');
      expect(fake.records[0]).toMatchObject({ upstreamId: (JSON.parse(message) as { id: string }).id, answerId: 'msg_genunit1' });
    });
  });

  describe('the balance reservation: the output cap once for every choice the provider bills', () => {
    // 150 and 600 nano-USD a token, 3,000 a request; the prompt bound is the body's bytes plus 100 tokens a prompt.
    const rates = [{ slug: 'openai/gpt-4o-mini', inputPriceMicrosPer1k: 150, outputPriceMicrosPer1k: 600, requestPriceMicros: 3 }];
    const prepaid = (answer: string) =>
      createFakeGateway({ providers: [fakeProvider('openai', ['openai-chat'])], models: [{ slug: 'openai/gpt-4o-mini' }], rates, fetch: async () => new Response(answer, { headers: { 'content-type': 'application/json' } }), balanceNanos: 100_000_000 });
    const bytesOf = (body: Record<string, unknown>) => Buffer.byteLength(JSON.stringify(body));

    it('reserves max_tokens for each of the n choices of a chat completion', async () => {
      const fake = prepaid(chatAnswer);
      const body = { ...hello, n: 128, max_tokens: 100 };
      await runGeneration(chatCompletionsEndpoint, request(body), fake.services, route);
      expect(fake.reservedNanos()).toBe((bytesOf(body) + 100) * 150 + 128 * 100 * 600 + 3_000);
    });

    it('reserves max_tokens for best_of candidates of each prompt of a legacy completion, and the overhead of each prompt', async () => {
      const fake = prepaid(readFixture('other/openai-completion-text.json'));
      const body = { model: 'openai/gpt-4o-mini', prompt: ['one', 'two', 'three'], n: 2, best_of: 4, max_tokens: 50 };
      await runGeneration(completionsEndpoint, request(body, '/v1/completions'), fake.services, route);
      expect(fake.reservedNanos()).toBe((bytesOf(body) + 3 * 100) * 150 + 3 * 4 * 50 * 600 + 3_000);
    });
  });

  describe('a cost beyond what a record holds exactly (a price stored before prices were capped)', () => {
    const dearest = { slug: 'openai/gpt-4o-mini', inputPriceMicrosPer1k: 99_999_999_999_999, outputPriceMicrosPer1k: 99_999_999_999_999 };
    const answered = () => new Response(chatAnswer, { headers: { 'content-type': 'application/json' } });

    it('answers and records the tokens, the cost held at 2^53 − 1 nano-USD and marked cost_out_of_range', async () => {
      const fake = createFakeGateway({ providers: [fakeProvider('openai', ['openai-chat'])], models: [{ slug: 'openai/gpt-4o-mini' }], rates: [dearest], fetch: async () => answered() });

      const response = await runGeneration(chatCompletionsEndpoint, request(hello), fake.services, route);

      expect(response.status).toBe(200);
      expect(fake.records).toHaveLength(1);
      expect(fake.records[0]).toMatchObject({ status: 'completed', promptTokens: 16, completionTokens: 363, costNanos: Number.MAX_SAFE_INTEGER, errorCode: 'cost_out_of_range' });
    });

    it.each([false, true])('shows that cost when the project injects it (stream: %s)', async (stream) => {
      const streamed = () => new Response(readFixture('openai-chat/chat-stream-text-include-usage.sse'), { headers: { 'content-type': 'text/event-stream' } });
      const fake = createFakeGateway({ providers: [fakeProvider('openai', ['openai-chat'])], models: [{ slug: 'openai/gpt-4o-mini' }], rates: [dearest], fetch: async () => (stream ? streamed() : answered()) });
      const config = await fake.services.projects.loadProjectConfig('acme');
      if (config) config.project.usageInjection = true;

      const response = await runGeneration(chatCompletionsEndpoint, request({ ...hello, stream }), fake.services, route);
      const body = typeof response.body === 'string' ? response.body : await new Response(asWebStream(response.body)).text();
      await response.afterAnswer?.();

      expect(response.status).toBe(200);
      expect(body).toContain('"cost":9007199.254740991');
      expect(fake.records).toHaveLength(1);
      expect(fake.records[0]).toMatchObject({ status: 'completed', costNanos: Number.MAX_SAFE_INTEGER, errorCode: 'cost_out_of_range' });
    });
  });

  describe('the end user the body names', () => {
    it('is recorded from chat’s `user`, which still goes upstream as it came', async () => {
      const sent: string[] = [];
      const fake = createFakeGateway({ providers: [fakeProvider('openai', ['openai-chat'])], models: [{ slug: 'openai/gpt-4o-mini' }], fetch: async (_url, init) => (sent.push(String(init?.body)), new Response(chatAnswer, { headers: { 'content-type': 'application/json' } })) });
      await runGeneration(chatCompletionsEndpoint, request({ ...hello, user: 'user-123' }), fake.services, route);
      expect(fake.records[0]?.attribution).toEqual({ endUser: 'user-123' });
      expect(JSON.parse(sent[0] ?? '{}')).toMatchObject({ user: 'user-123' });
    });

    it('is recorded from a Messages body’s `metadata.user_id`, which still goes upstream as it came', async () => {
      const sent: string[] = [];
      const fake = createFakeGateway({ providers: [fakeProvider('anthropic', ['anthropic-messages'], 'x-api-key')], models: [{ slug: 'anthropic/claude-haiku-4-5' }], fetch: async (_url, init) => (sent.push(String(init?.body)), new Response(readFixture('anthropic/messages-nonstream-text.json'), { headers: { 'content-type': 'application/json' } })) });
      const messages = { model: 'anthropic/claude-haiku-4-5', max_tokens: 10, messages: [{ role: 'user', content: 'Hi' }], metadata: { user_id: 'user-456' } };
      await runGeneration(messagesEndpoint, { ...request(messages), path: '/v1/messages' }, fake.services, route);
      expect(fake.records[0]?.attribution).toEqual({ endUser: 'user-456' });
      expect(JSON.parse(sent[0] ?? '{}')).toMatchObject({ metadata: { user_id: 'user-456' } });
    });

    it('is recorded from a legacy completion’s `safety_identifier` when it has no `user`', async () => {
      const fake = createFakeGateway({ providers: [fakeProvider('openai', ['openai-chat'])], models: [{ slug: 'openai/gpt-4o-mini' }], fetch: async () => new Response(readFixture('other/openai-completion-text.json'), { headers: { 'content-type': 'application/json' } }) });
      await runGeneration(completionsEndpoint, request({ model: 'openai/gpt-4o-mini', prompt: 'Hi', safety_identifier: 'hashed-42' }, '/v1/completions'), fake.services, route);
      expect(fake.records[0]?.attribution).toEqual({ endUser: 'hashed-42' });
    });
  });

  it('relays an upstream refusal in the client protocol and records it once', async () => {
    const fake = createFakeGateway({
      providers: [fakeProvider('anthropic', ['anthropic-messages'], 'x-api-key')],
      models: [{ slug: 'anthropic/claude-haiku-4-5' }],
      fetch: async () => new Response(readFixture('anthropic/messages-error-400-invalid-request.json'), { status: 400, headers: { 'content-type': 'application/json' } }),
    });
    const response = await runGeneration(chatCompletionsEndpoint, request({ ...hello, model: 'anthropic/claude-haiku-4-5' }), fake.services, route);
    expect(response.status).toBe(400);
    expect(JSON.parse(String(response.body))).toMatchObject({ error: { type: 'invalid_request_error' } });
    expect(fake.records).toHaveLength(1);
    expect(fake.records[0]).toMatchObject({ status: 'failed', httpStatus: 400, errorCode: 'upstream_rejected_request' });
  });

  it('refuses a body that cannot be translated with 400 before any upstream call, and never cools the model down', async () => {
    let called = 0;
    const fake = createFakeGateway({ providers: [fakeProvider('openai', ['openai-chat'])], models: [{ slug: 'openai/gpt-4o-mini' }], fetch: async () => (called++, new Response(chatAnswer)) });
    const invalid = { model: 'openai/gpt-4o-mini', max_tokens: 10, messages: [{ role: 'user', content: 42 }] };
    const error = await runGeneration(messagesEndpoint, { ...request(invalid), path: '/v1/messages' }, fake.services, route).catch((thrown: unknown) => thrown);
    expect(error).toBeInstanceOf(GatewayError);
    expect(error).toMatchObject({ status: 400, code: 'invalid_request_body' });
    expect(called).toBe(0);
    expect(fake.services.coolDown.isCoolingDown('acme/openai/gpt-4o-mini')).toBe(false);
    expect(fake.records).toHaveLength(1);
  });

  it('tells an embedding model apart from a chat model: 400 model_unsupported_for_endpoint', async () => {
    const fake = createFakeGateway({ providers: [fakeProvider('openai', ['openai-chat'])], models: [{ slug: 'openai/text-embedding-3-small', kind: 'embedding' }], fetch: async () => new Response(chatAnswer) });
    await expect(runGeneration(chatCompletionsEndpoint, request({ ...hello, model: 'openai/text-embedding-3-small' }), fake.services, route)).rejects.toMatchObject({
      status: 400,
      code: 'model_unsupported_for_endpoint',
    });
    expect(fake.records).toHaveLength(0);
  });

  describe('x-generation-id: every metered answer names its record, failures too', () => {
    const overloaded = () => new Response(JSON.stringify({ error: { message: 'overloaded', type: 'server_error' } }), { status: 500, headers: { 'content-type': 'application/json' } });

    it('on the gateway error that follows an upstream failure', async () => {
      const fake = createFakeGateway({ providers: [fakeProvider('openai', ['openai-chat'])], models: [{ slug: 'openai/gpt-4o-mini' }], fetch: async () => overloaded() });
      const error = await runGeneration(chatCompletionsEndpoint, request(hello), fake.services, route).catch((thrown: unknown) => thrown);
      expect(error).toBeInstanceOf(GatewayError);
      expect(error).toMatchObject({ status: 502, headers: { 'x-generation-id': 'gen-unit-1' } });
      expect(fake.records).toHaveLength(1);
    });

    it("on the upstream's own failure relayed to a Messages client", async () => {
      const fake = createFakeGateway({ providers: [fakeProvider('anthropic', ['anthropic-messages'], 'x-api-key')], models: [{ slug: 'anthropic/claude-haiku-4-5' }], fetch: async () => overloaded() });
      const messages = { model: 'anthropic/claude-haiku-4-5', max_tokens: 10, messages: [{ role: 'user', content: 'Hi' }] };
      const response = await runGeneration(messagesEndpoint, { ...request(messages), path: '/v1/messages' }, fake.services, route);
      expect(response.status).toBeGreaterThanOrEqual(500);
      expect(response.headers['x-generation-id']).toBe('gen-unit-1');
      expect(fake.records).toHaveLength(1);
    });

    it("on an upstream's refusal of the request", async () => {
      const fake = createFakeGateway({ providers: [fakeProvider('openai', ['openai-chat'])], models: [{ slug: 'openai/gpt-4o-mini' }], fetch: async () => new Response('{"error":{"message":"bad","type":"invalid_request_error"}}', { status: 400, headers: { 'content-type': 'application/json' } }) });
      const response = await runGeneration(chatCompletionsEndpoint, request(hello), fake.services, route);
      expect([response.status, response.headers['x-generation-id']]).toEqual([400, 'gen-unit-1']);
    });
  });

  describe('fallback_attempts: the fallbacks tried, the attempts after the first', () => {
    const overloaded = () => new Response(JSON.stringify({ error: { message: 'overloaded', type: 'server_error' } }), { status: 500, headers: { 'content-type': 'application/json' } });
    const models = [{ slug: 'openai/gpt-4o-mini' }, { slug: 'openai/gpt-4o' }];
    const withFallback = { ...hello, route: 'fallback', models: ['openai/gpt-4o'] };

    it('counts none when the one target fails (failover off): no fallback was tried', async () => {
      const fake = createFakeGateway({ providers: [fakeProvider('openai', ['openai-chat'])], models, fetch: async () => overloaded() });
      await expect(runGeneration(chatCompletionsEndpoint, request(hello), fake.services, route)).rejects.toMatchObject({ status: 502 });
      expect(fake.records).toHaveLength(1);
      expect(fake.records[0]).toMatchObject({ status: 'failed', httpStatus: 502, model: 'openai/gpt-4o-mini', fallbackAttempts: 0 });
    });

    it('counts one when the fallback served after the first target failed', async () => {
      const fake = createFakeGateway({
        providers: [fakeProvider('openai', ['openai-chat'])],
        models,
        fetch: async (_url, init) => (String(init?.body).includes('"gpt-4o-mini"') ? overloaded() : new Response(chatAnswer, { headers: { 'content-type': 'application/json' } })),
      });
      const response = await runGeneration(chatCompletionsEndpoint, request(withFallback), fake.services, route);
      expect(response.status).toBe(200);
      expect(fake.records[0]).toMatchObject({ status: 'completed', model: 'openai/gpt-4o', fallbackAttempts: 1 });
    });

    it('counts one when both targets failed: the first attempt is no fallback', async () => {
      const fake = createFakeGateway({ providers: [fakeProvider('openai', ['openai-chat'])], models, fetch: async () => overloaded() });
      await expect(runGeneration(chatCompletionsEndpoint, request(withFallback), fake.services, route)).rejects.toMatchObject({ status: 502 });
      expect(fake.records[0]).toMatchObject({ status: 'failed', model: 'openai/gpt-4o', fallbackAttempts: 1 });
    });

    it('counts no fallback for a target the deadline left untried, and names the target last tried', async () => {
      const fake = createFakeGateway({ providers: [fakeProvider('openai', ['openai-chat'])], models, fetch: async () => overloaded() });
      let now = Date.now();
      fake.services.clock.now = () => now;
      const slow = async () => ((now += 60_000), overloaded());
      const services = { ...fake.services, fetch: slow };
      await expect(runGeneration(chatCompletionsEndpoint, request(withFallback), services, { ...route, receivedAt: now })).rejects.toMatchObject({ status: 502 });
      expect(fake.records[0]).toMatchObject({ status: 'failed', model: 'openai/gpt-4o-mini', fallbackAttempts: 0 });
    });

    it('counts in its message only the attempts made, and names the target the deadline left untried', async () => {
      const three = [...models, { slug: 'openai/o3' }];
      const fake = createFakeGateway({ providers: [fakeProvider('openai', ['openai-chat'])], models: three, fetch: async () => overloaded() });
      let now = Date.now();
      fake.services.clock.now = () => now;
      // Each attempt takes 6 s of a 10 s deadline: the third target is never tried.
      const slow = async () => ((now += 6_000), overloaded());
      const services = { ...fake.services, fetch: slow };
      const body = { ...hello, route: 'fallback', models: ['openai/gpt-4o', 'openai/o3'] };
      const error = await runGeneration(chatCompletionsEndpoint, request(body), services, { ...route, receivedAt: now }).catch((thrown: unknown) => thrown);
      expect(error).toMatchObject({ status: 502, code: 'deadline_exceeded' });
      expect((error as GatewayError).message).toMatch(/^2 attempts failed; the request deadline passed before "openai\/o3" could be tried: "openai\/gpt-4o-mini": .* \| "openai\/gpt-4o": /);
      expect(fake.records[0]).toMatchObject({ status: 'failed', errorCode: 'deadline_exceeded', model: 'openai/gpt-4o', fallbackAttempts: 1 });
    });
  });
});
