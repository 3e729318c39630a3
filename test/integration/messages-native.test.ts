import Anthropic from '@anthropic-ai/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recordedAnthropicAnswer } from '../support/fake-anthropic-upstream.ts';
import { startFakeOpenAiUpstream, sendJson, type FakeUpstream } from '../support/fake-openai-upstream.ts';
import { awaitFreshWindow } from '../support/admission.ts';
import { readFixture } from '../support/fixtures.ts';
import { startTestGateway, type TestGateway } from '../support/test-gateway.ts';

const PROVIDER_KEY = 'sk-ant-upstream-0123456789';
let gateway: TestGateway;
let upstream: FakeUpstream;
let key: string;
let costedKey: string;

beforeAll(async () => {
  upstream = await startFakeOpenAiUpstream();
  gateway = await startTestGateway();
  await gateway.admin({ command: 'project.create', projectId: 'claude' });
  await gateway.admin({ command: 'provider.set', projectId: 'claude', provider: 'anthropic', apiKey: PROVIDER_KEY, baseUrl: upstream.baseUrl });
  await gateway.admin({ command: 'model.allow', projectId: 'claude', slug: 'anthropic/claude-haiku-4-5', inputMicrosPer1k: 1000, outputMicrosPer1k: 5000, cachedInputMicrosPer1k: 100, cacheWriteInputMicrosPer1k: 1250 });
  key = (await gateway.admin<{ key: string }>({ command: 'key.create', projectId: 'claude' })).key;
  await gateway.admin({ command: 'project.create', projectId: 'claude-costed' });
  await gateway.admin({ command: 'provider.set', projectId: 'claude-costed', provider: 'anthropic', apiKey: PROVIDER_KEY, baseUrl: upstream.baseUrl });
  await gateway.admin({ command: 'model.allow', projectId: 'claude-costed', slug: 'anthropic/claude-haiku-4-5', inputMicrosPer1k: 1000, outputMicrosPer1k: 5000 });
  await gateway.admin({ command: 'project.update', projectId: 'claude-costed', usageInjection: true });
  costedKey = (await gateway.admin<{ key: string }>({ command: 'key.create', projectId: 'claude-costed' })).key;
});

afterAll(async () => {
  await gateway.close();
  await upstream.close();
});

/** Claude Code's set-up: the project key as the bearer token, no API key, the host as base URL. */
const client = (headers: Record<string, string> = {}, authToken = key) =>
  new Anthropic({ authToken, apiKey: null, baseURL: gateway.url, maxRetries: 0, defaultHeaders: headers });

const ask = { model: 'anthropic/claude-haiku-4-5', max_tokens: 64, messages: [{ role: 'user' as const, content: 'Hello' }] };

async function generation(id: string): Promise<Record<string, unknown>> {
  const lookup = () => fetch(`${gateway.url}/v1/generation?id=${id}`, { headers: { authorization: `Bearer ${key}` } });
  await expect.poll(async () => (await lookup()).status, { timeout: 2_000, interval: 50 }).toBe(200);
  return (await (await lookup()).json()) as Record<string, unknown>;
}

describe('POST /v1/messages, native', () => {
  it('returns the recorded answer to the Anthropic SDK and forwards the upstream its own key and version headers', async () => {
    upstream.answerWith(recordedAnthropicAnswer());
    upstream.received.length = 0;

    const message = await client({ 'anthropic-beta': 'interleaved-thinking-2025-05-14', 'X-Claude-Code-Session-Id': 'session-1' }).messages.create(ask);

    expect(message).toEqual(JSON.parse(readFixture('anthropic/messages-nonstream-text.json')));
    const seen = upstream.received[0];
    expect(seen?.path).toBe('/v1/messages');
    expect(seen?.headers['x-api-key']).toBe(PROVIDER_KEY);
    expect(seen?.headers.authorization).toBeUndefined();
    expect(seen?.headers['anthropic-version']).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(seen?.headers['anthropic-beta']).toBe('interleaved-thinking-2025-05-14');
    expect(seen?.body.model).toBe('claude-haiku-4-5');
  });

  it('accepts the spec names upstream-version and upstream-beta as aliases', async () => {
    upstream.answerWith(recordedAnthropicAnswer());
    upstream.received.length = 0;
    await fetch(`${gateway.url}/v1/messages`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', 'upstream-version': '2023-06-01', 'upstream-beta': 'tools-2024-04-04' },
      body: JSON.stringify(ask),
    });
    expect(upstream.received[0]?.headers['anthropic-version']).toBe('2023-06-01');
    expect(upstream.received[0]?.headers['anthropic-beta']).toBe('tools-2024-04-04');
  });

  it('keeps the betas a client sends under both names, each once', async () => {
    upstream.answerWith(recordedAnthropicAnswer());
    upstream.received.length = 0;
    await fetch(`${gateway.url}/v1/messages`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', 'anthropic-beta': 'claude-code-20250219, interleaved-thinking-2025-05-14', 'upstream-beta': 'interleaved-thinking-2025-05-14,context-1m-2025-08-07' },
      body: JSON.stringify(ask),
    });
    expect(upstream.received[0]?.headers['anthropic-beta']).toBe('claude-code-20250219,interleaved-thinking-2025-05-14,context-1m-2025-08-07');
  });

  it('relays a recorded thinking-then-tool-use stream byte for byte', async () => {
    const recorded = readFixture('anthropic/messages-stream-thinking-then-tool-use.sse');
    upstream.answerWith(recordedAnthropicAnswer({ stream: 'anthropic/messages-stream-thinking-then-tool-use.sse' }));
    const response = await fetch(`${gateway.url}/v1/messages?beta=true`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ ...ask, stream: true }),
    });
    expect(await response.text()).toBe(recorded);
  });

  it('streams to the Anthropic SDK and records cache tokens priced at their own prices', async () => {
    upstream.answerWith(recordedAnthropicAnswer({ json: 'anthropic/messages-nonstream-cache-usage.json' }));
    const { response } = await client({ 'X-Request-ID': 'cache-1', 'X-Claude-Code-Session-Id': 'session-7' }).messages.create(ask).withResponse();
    expect(response.headers.get('x-gateway-model')).toBe('anthropic/claude-haiku-4-5');

    const usage = (JSON.parse(readFixture('anthropic/messages-nonstream-cache-usage.json')) as { usage: Record<string, number> }).usage;
    const input = usage.input_tokens ?? 0;
    const write = usage.cache_creation_input_tokens ?? 0;
    const read = usage.cache_read_input_tokens ?? 0;
    const output = usage.output_tokens ?? 0;
    const record = await generation('cache-1');
    expect(record).toMatchObject({ tokens_prompt: input + write + read, tokens_completion: output, native_tokens_cached: read, session_id: 'session-7' });
    expect(record.total_cost).toBe((input * 1000 + write * 1250 + read * 100 + output * 5000) / 1e9);
  });

  it('hands the SDK a streamed text answer with usage from message_start and message_delta', async () => {
    upstream.answerWith(recordedAnthropicAnswer());
    const stream = client({ 'X-Request-ID': 'stream-1' }).messages.stream(ask);
    const final = await stream.finalMessage();
    expect(final.content).toEqual([{ type: 'text', text: 'Hello' }]);
    expect(await generation('stream-1')).toMatchObject({ streamed: true, tokens_prompt: 10, tokens_completion: 4, finish_reason: 'stop', native_finish_reason: 'end_turn' });
  });
});

describe('POST /v1/messages, native, with usage-cost injection', () => {
  /** The rate card's price of Anthropic usage counts, in USD: 1000 and 5000 nano-USD per input and output token. */
  const costOf = (usage: { input_tokens: number; output_tokens: number }) => (usage.input_tokens * 1000 + usage.output_tokens * 5000) / 1e9;

  it('adds usage.cost to the message the Anthropic SDK receives', async () => {
    upstream.answerWith(recordedAnthropicAnswer());
    const message = await client({}, costedKey).messages.create(ask);
    const usage = message.usage as unknown as { input_tokens: number; output_tokens: number; cost: number };
    expect(usage.cost).toBe(costOf(usage));
    expect(message.content).toEqual(JSON.parse(readFixture('anthropic/messages-nonstream-text.json')).content);
  });

  it("ends the stream's final message_delta with the cost of the whole message, which the Anthropic SDK reads through", async () => {
    upstream.answerWith(recordedAnthropicAnswer());
    const stream = client({}, costedKey).messages.stream(ask);
    const deltas: Anthropic.MessageDeltaEvent[] = [];
    stream.on('streamEvent', (event) => {
      if (event.type === 'message_delta') deltas.push(event);
    });
    const final = await stream.finalMessage();
    expect(final.content).toEqual([{ type: 'text', text: 'Hello' }]);
    expect(deltas).toHaveLength(1);
    // The recorded stream: 10 input tokens in message_start, 4 output tokens in message_delta.
    expect((deltas[0]?.usage as unknown as { cost: number }).cost).toBe(costOf({ input_tokens: 10, output_tokens: 4 }));
  });
});

describe('POST /v1/messages errors', () => {
  it("refuses an empty messages array with 400 in Anthropic's error format, before a provider is called", async () => {
    upstream.received.length = 0;
    const refused = await client().messages.create({ ...ask, messages: [] }).catch((error: unknown) => error);
    expect(refused).toMatchObject({ status: 400, error: { type: 'error', error: { type: 'invalid_request_error', message: expect.stringContaining('at least one message') } } });
    expect(upstream.received).toEqual([]);
  });

  it('keeps an upstream 4xx status and body unchanged', async () => {
    const recorded = readFixture('anthropic/messages-error-400-invalid-request.json');
    upstream.answerWith((_request, response) => sendJson(response, 400, recorded));
    const response = await fetch(`${gateway.url}/v1/messages`, { method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body: JSON.stringify(ask) });
    expect(response.status).toBe(400);
    expect(await response.text()).toBe(recorded);
  });

  it("answers a provider's HTML error page (nginx's 400) in Anthropic's error format, with its status and the page's words", async () => {
    upstream.answerWith((_request, response) => sendJson(response, 400, readFixture('other/nginx-400-bad-request.html'), { 'content-type': 'text/html' }));
    const error = (await client().messages.create(ask).catch((thrown: unknown) => thrown)) as InstanceType<typeof Anthropic.APIError>;
    expect(error).toBeInstanceOf(Anthropic.BadRequestError);
    expect(error.error).toEqual({ type: 'error', error: { type: 'invalid_request_error', message: '400 Bad Request nginx' }, request_id: error.requestID });
  });

  it("answers a provider's HTML 502 page as Anthropic's 502 api_error with the page's words", async () => {
    upstream.answerWith((_request, response) => sendJson(response, 502, readFixture('other/nginx-502-bad-gateway.html'), { 'content-type': 'text/html' }));
    const error = (await client().messages.create(ask).catch((thrown: unknown) => thrown)) as InstanceType<typeof Anthropic.APIError>;
    expect(error).toBeInstanceOf(Anthropic.InternalServerError);
    expect(error.status).toBe(502);
    expect(error.error).toEqual({ type: 'error', error: { type: 'api_error', message: '502 Bad Gateway nginx' }, request_id: error.requestID });
  });

  it('turns an upstream 529 into 502 keeping its error type and message', async () => {
    const recorded = JSON.parse(readFixture('anthropic/messages-error-529-overloaded.json')) as Record<string, unknown>;
    upstream.answerWith((_request, response) => sendJson(response, 529, recorded));
    const error = await client().messages.create(ask).catch((thrown: unknown) => thrown);
    expect(error).toBeInstanceOf(Anthropic.APIError);
    expect((error as InstanceType<typeof Anthropic.APIError>).status).toBe(502);
    expect((error as InstanceType<typeof Anthropic.APIError>).error).toEqual(recorded);
  });

  it("answers a rejected provider key with 502 api_error in the gateway's words, which Claude Code does not read as its own login failing", async () => {
    const invalidKey = { type: 'error', error: { type: 'authentication_error', message: 'invalid x-api-key' }, request_id: 'req_upstream' };
    upstream.answerWith((_request, response) => sendJson(response, 401, invalidKey));
    for (const stream of [false, true]) {
      const error = (await client().messages.create({ ...ask, stream }).catch((thrown: unknown) => thrown)) as InstanceType<typeof Anthropic.APIError>;
      expect(error).toBeInstanceOf(Anthropic.InternalServerError);
      expect(error.status).toBe(502);
      expect(error.error).toMatchObject({ type: 'error', error: { type: 'api_error', message: expect.stringContaining('Provider "anthropic" rejected the project\'s credential (HTTP 401)') } });
      expect(JSON.stringify(error.error)).not.toMatch(/x-api-key|authentication_error/);
    }
  });

  it('keeps an upstream 429 with its Retry-After', async () => {
    upstream.answerWith((_request, response) => sendJson(response, 429, readFixture('anthropic/messages-error-429-rate-limit.json'), { 'retry-after': '9' }));
    const response = await fetch(`${gateway.url}/v1/messages`, { method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body: JSON.stringify(ask) });
    expect(response.status).toBe(429);
    expect(response.headers.get('retry-after')).toBe('9');
  });

  it('answers its own errors in the Anthropic format', async () => {
    const unauthenticated = await fetch(`${gateway.url}/v1/messages`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(ask) });
    const notAllowed = await fetch(`${gateway.url}/v1/messages`, { method: 'POST', headers: { 'x-api-key': key, 'content-type': 'application/json' }, body: JSON.stringify({ ...ask, model: 'anthropic/claude-opus-4' }) });
    expect(unauthenticated.status).toBe(401);
    expect(await unauthenticated.json()).toMatchObject({ type: 'error', error: { type: 'authentication_error' } });
    expect(notAllowed.status).toBe(404);
    expect(await notAllowed.json()).toMatchObject({ type: 'error', error: { type: 'not_found_error' } });
  });

  it("gives the Anthropic SDK the gateway's request id as an error's requestID", async () => {
    const error = (await client({ 'X-Request-ID': 'own-error-2' }).messages.create({ ...ask, model: 'anthropic/claude-opus-4' }).catch((thrown: unknown) => thrown)) as InstanceType<typeof Anthropic.APIError>;
    expect(error).toBeInstanceOf(Anthropic.NotFoundError);
    expect(error.requestID).toBe('own-error-2');
    expect(error.error).toMatchObject({ request_id: 'own-error-2' });
  });
});

describe("the gateway's request id in request-id, where the Anthropic SDK reads it", () => {
  it('names it on an answer (the SDK\'s _request_id), streamed or not, and on a count', async () => {
    upstream.answerWith(recordedAnthropicAnswer());
    const message = await client({ 'X-Request-ID': 'named-answer' }).messages.create(ask);
    expect(message._request_id).toBe('named-answer');
    const stream = await client({ 'X-Request-ID': 'named-stream' }).messages.create({ ...ask, stream: true }).withResponse();
    expect(stream.request_id).toBe('named-stream');
    for await (const event of stream.data) void event;
    const count = await client({ 'X-Request-ID': 'named-count' }).messages.countTokens({ model: ask.model, messages: ask.messages });
    expect(count._request_id).toBe('named-count');
  });

  it("names it on an upstream error passed through (the SDK's requestID), whose body keeps the upstream's own", async () => {
    const recorded = readFixture('anthropic/messages-error-400-invalid-request.json');
    upstream.answerWith((_request, response) => sendJson(response, 400, recorded, { 'request-id': 'req_upstream' }));
    const error = (await client({ 'X-Request-ID': 'named-upstream-error' }).messages.create(ask).catch((thrown: unknown) => thrown)) as InstanceType<typeof Anthropic.APIError>;
    expect(error).toBeInstanceOf(Anthropic.BadRequestError);
    expect(error.requestID).toBe('named-upstream-error');
    expect(error.error).toEqual(JSON.parse(recorded));
  });
});

describe('POST /v1/messages/count_tokens', () => {
  it('proxies the count for an Anthropic model and says it came from the provider', async () => {
    upstream.answerWith(recordedAnthropicAnswer());
    upstream.received.length = 0;
    const { data, response } = await client().messages.countTokens({ model: ask.model, messages: ask.messages }).withResponse();
    expect(data).toEqual(JSON.parse(readFixture('anthropic/count-tokens.json')));
    expect(response.headers.get('x-gateway-token-count')).toBe('provider');
    expect(upstream.received[0]?.path).toBe('/v1/messages/count_tokens');
  });

  it('gives the provider’s refusal of a count in Anthropic’s error body with its status', async () => {
    upstream.answerWith((_request, response) => sendJson(response, 404, readFixture('anthropic/count-tokens-error-404-not-found.json')));
    const error = await client().messages.countTokens({ model: ask.model, messages: ask.messages }).catch((thrown: unknown) => thrown);
    expect(error).toBeInstanceOf(Anthropic.NotFoundError);
    expect(error).toMatchObject({ status: 404, error: { type: 'error', error: { type: 'not_found_error', message: 'model: claude-does-not-exist' } } });
  });

  it("uses none of the requests per minute of real requests: counts have a window of their own, with the same limit", async () => {
    await gateway.admin({ command: 'project.create', projectId: 'counting' });
    await gateway.admin({ command: 'provider.set', projectId: 'counting', provider: 'anthropic', apiKey: PROVIDER_KEY, baseUrl: upstream.baseUrl });
    await gateway.admin({ command: 'model.allow', projectId: 'counting', slug: 'anthropic/claude-haiku-4-5' });
    await gateway.admin({ command: 'project.update', projectId: 'counting', rpm: 2 });
    const countingKey = (await gateway.admin<{ key: string }>({ command: 'key.create', projectId: 'counting' })).key;
    const post = (path: string, body: unknown) =>
      fetch(`${gateway.url}${path}`, { method: 'POST', headers: { authorization: `Bearer ${countingKey}`, 'content-type': 'application/json' }, body: JSON.stringify(body) });
    upstream.answerWith(recordedAnthropicAnswer());
    await awaitFreshWindow();
    const counts = [];
    for (let request = 0; request < 3; request += 1) counts.push(await post('/v1/messages/count_tokens', { model: ask.model, messages: ask.messages }));
    expect(counts.map((response) => response.status)).toEqual([200, 200, 429]);
    expect(await counts[2]?.json()).toMatchObject({ type: 'error', error: { type: 'rate_limit_error', message: expect.stringContaining('2 count_tokens requests per minute of this project') } });
    const generations = [];
    for (let request = 0; request < 3; request += 1) generations.push((await post('/v1/messages', ask)).status);
    expect(generations).toEqual([200, 200, 429]);
  });
});
