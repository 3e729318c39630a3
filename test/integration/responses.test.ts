import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sendJson, sendSse, sseEvents, startFakeOpenAiUpstream, type FakeUpstream } from '../support/fake-openai-upstream.ts';
import { recordedResponsesAnswer } from '../support/fake-responses-upstream.ts';
import { readFixture } from '../support/fixtures.ts';
import { startTestGateway, type TestGateway } from '../support/test-gateway.ts';
import { responsesFixtureBody } from '../canonical/support/sse-replay.ts';

let gateway: TestGateway;
let openai: FakeUpstream;
let openrouter: FakeUpstream;
let key: string;
let injectingKey: string;
let otherKey: string;

const TEXT_RESPONSE_ID = 'resp_08ddf351751647d60169fab1b8a7ac81a081b9e2400e87fb63';
const STREAM_RESPONSE_ID = 'resp_00592e63e61b66660169fab1b9f8e481a2b321356198d7ac1b';

async function project(projectId: string, options: { usageInjection?: boolean } = {}): Promise<string> {
  await gateway.admin({ command: 'project.create', projectId });
  if (options.usageInjection) await gateway.admin({ command: 'project.update', projectId, usageInjection: true });
  await gateway.admin({ command: 'provider.set', projectId, provider: 'openai', apiKey: 'sk-openai-upstream-0123456789', baseUrl: openai.baseUrl });
  await gateway.admin({ command: 'provider.set', projectId, provider: 'openrouter', apiKey: 'sk-or-upstream-0123456789', baseUrl: openrouter.baseUrl });
  await gateway.admin({ command: 'model.allow', projectId, slug: 'openai/gpt-5.5', inputMicrosPer1k: 1250, outputMicrosPer1k: 10_000 });
  await gateway.admin({ command: 'model.allow', projectId, slug: 'openrouter/openai/gpt-5.5', inputMicrosPer1k: 1250, outputMicrosPer1k: 10_000 });
  return (await gateway.admin<{ key: string }>({ command: 'key.create', projectId })).key;
}

beforeAll(async () => {
  openai = await startFakeOpenAiUpstream();
  openrouter = await startFakeOpenAiUpstream();
  gateway = await startTestGateway();
  key = await project('codex');
  injectingKey = await project('injecting', { usageInjection: true });
  otherKey = await project('other');
});

afterAll(async () => {
  await gateway?.close();
  await openai?.close();
  await openrouter?.close();
});

interface Generation {
  endpoint: string;
  model: string;
  provider: string;
  tokens_prompt: number;
  tokens_completion: number;
  total_cost: number;
  fallback_attempts: number;
  upstream_id: string | null;
  streamed: boolean;
  status: string;
  finish_reason: string | null;
}

async function generation(apiKey: string, id: string): Promise<Generation> {
  await gateway.host.drainUsage();
  const response = await fetch(`${gateway.url}/v1/generation?id=${encodeURIComponent(id)}`, { headers: { authorization: `Bearer ${apiKey}` } });
  expect(response.status).toBe(200);
  return (await response.json()) as Generation;
}

describe('POST /v1/responses to a provider that serves the Responses API', () => {
  it('creates a response through the official SDK: the body as sent minus routing fields, the answer as the provider sent it', async () => {
    openai.answerWith(recordedResponsesAnswer());
    openai.received.length = 0;

    const { data: response, response: raw } = await gateway
      .openai(key)
      .responses.create({ model: 'gpt-5.5', input: 'Reply with exactly: pong', store: true, reasoning: { effort: 'low' }, models: ['openai/gpt-5.5'], route: 'fallback' } as OpenAI.Responses.ResponseCreateParamsNonStreaming)
      .withResponse();

    expect(openai.received[0]?.path).toBe('/v1/responses');
    expect(openai.received[0]?.headers.authorization).toBe('Bearer sk-openai-upstream-0123456789');
    expect(openai.received[0]?.body).toEqual({ model: 'gpt-5.5', input: 'Reply with exactly: pong', store: true, reasoning: { effort: 'low' } });
    expect(response.id).toBe(TEXT_RESPONSE_ID);
    expect(response.output_text).toBe('pong');
    expect(raw.headers.get('x-gateway-model')).toBe('openai/gpt-5.5');
    const record = await generation(key, raw.headers.get('x-request-id') ?? '');
    expect(record).toMatchObject({ endpoint: 'responses', model: 'openai/gpt-5.5', tokens_prompt: 11, tokens_completion: 5, upstream_id: TEXT_RESPONSE_ID, status: 'completed', finish_reason: 'stop', native_finish_reason: 'completed', streamed: false });
    expect(record.total_cost).toBeCloseTo((11 * 1250 + 5 * 10_000) / 1e9, 12);
  });

  it('streams a response through the official SDK with the provider’s events, metered from response.completed', async () => {
    openai.answerWith(recordedResponsesAnswer());
    const stream = gateway.openai(key).responses.stream({ model: 'openai/gpt-5.5', input: 'Reply with exactly: pong' });
    const types: string[] = [];
    for await (const event of stream) types.push(event.type);
    const final = await stream.finalResponse();

    expect(types).toEqual(sseEvents(readFixture('openai-responses/responses-stream-text.sse')).map((event) => /^event: (.*)$/m.exec(event)?.[1]));
    expect(final.output_text).toBe('pong');
    expect(final.usage?.input_tokens).toBe(11);
  });

  it('passes unknown event types and fields through byte for byte', async () => {
    const body = responsesFixtureBody('responses-stream-reasoning-summary-function-call.chunks.txt');
    openai.answerWith((_request, response) => sendSse(response, sseEvents(body), 1));
    const response = await fetch(`${gateway.url}/v1/responses`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'gpt-5.5', input: 'x', stream: true }),
    });
    expect(response.headers.get('content-type')).toBe('text/event-stream');
    expect(await response.text()).toBe(body);
  });

  it('adds usage.cost to the response and to the final event’s response.usage when the project injects cost', async () => {
    openai.answerWith(recordedResponsesAnswer());
    const cost = (11 * 1250 + 5 * 10_000) / 1e9;
    const created = (await gateway.openai(injectingKey).responses.create({ model: 'gpt-5.5', input: 'x' })) as OpenAI.Responses.Response & { usage: { cost: number } };
    expect(created.usage.cost).toBeCloseTo(cost, 12);

    const stream = gateway.openai(injectingKey).responses.stream({ model: 'gpt-5.5', input: 'x' });
    for await (const _event of stream) void _event;
    const final = (await stream.finalResponse()) as unknown as { usage: { cost: number } };
    expect(final.usage.cost).toBeCloseTo(cost, 12);
  });

  it('relays a provider 400 in OpenAI’s error body before the first byte, even for a stream', async () => {
    openai.answerWith((_request, response) => sendJson(response, 400, readFixture('openai-responses/responses-error-400-invalid-temperature.json')));
    const error = await gateway
      .openai(key)
      .responses.create({ model: 'gpt-5.5', input: 'x', temperature: -1, stream: true })
      .catch((thrown: unknown) => thrown);
    expect(error).toBeInstanceOf(OpenAI.BadRequestError);
    expect(error).toMatchObject({ status: 400, code: 'decimal_below_min_value', param: 'temperature' });
  });

  it('answers an upstream 429 insufficient_quota as an account without quota, which the SDK does not retry (a rate limit it would)', async () => {
    openai.answerWith((_request, response) => sendJson(response, 429, readFixture('openai-responses/responses-error-429-insufficient-quota.json')));
    openai.received.length = 0;
    // A project of its own: the target cools down after a 429, as it should, and the other tests' requests would fail over.
    const quotaKey = await project('no-quota');
    const error = await gateway
      .openai(quotaKey, { maxRetries: 2 })
      .responses.create({ model: 'gpt-5.5', input: 'x', stream: true })
      .catch((thrown: unknown) => thrown);
    expect(error).toBeInstanceOf(OpenAI.RateLimitError);
    expect(error).toMatchObject({ status: 429, type: 'insufficient_quota', code: 'upstream_insufficient_quota' });
    expect(String((error as Error).message)).toMatch(/has no quota left .*You exceeded your current quota/);
    expect(openai.received).toHaveLength(1);
  });

  it('passes a stream that fails after HTTP 200 through as the provider ended it (error, response.failed), recorded as failed', async () => {
    openai.answerWith((_request, response) => sendSse(response, sseEvents(responsesFixtureBody('responses-stream-error-insufficient-quota.chunks.txt')), 1));
    const stream = gateway.openai(key).responses.stream({ model: 'gpt-5.5', input: 'x' });
    const failure = await (async () => {
      for await (const _event of stream) void _event;
    })().catch((thrown: unknown) => thrown);
    expect(failure).toBeInstanceOf(OpenAI.APIError);
    expect(String((failure as Error).message)).toMatch(/exceeded your current quota/);
  });

  it('ends a stream the provider broke off with an error event and response.failed, the SDK rejecting it', async () => {
    const events = sseEvents(readFixture('openai-responses/responses-stream-text.sse'));
    openai.answerWith(async (_request, response) => {
      response.writeHead(200, { 'content-type': 'text/event-stream' });
      for (const event of events.slice(0, 5)) response.write(event);
      await new Promise((resolve) => setTimeout(resolve, 20));
      response.socket?.destroy();
    });
    const response = await fetch(`${gateway.url}/v1/responses`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', 'x-request-id': 'broken-stream-1' },
      body: JSON.stringify({ model: 'gpt-5.5', input: 'x', stream: true }),
    });
    const text = await response.text();
    const tail = sseEvents(text).slice(-2);
    expect(tail.map((event) => /^event: (.*)$/m.exec(event)?.[1])).toEqual(['error', 'response.failed']);
    expect(JSON.parse(/^data: (.*)$/m.exec(tail[1] ?? '')?.[1] ?? '')).toMatchObject({ sequence_number: 6, response: { id: STREAM_RESPONSE_ID, status: 'failed', error: { code: 'upstream_stream_interrupted' } } });
    expect(await generation(key, 'broken-stream-1')).toMatchObject({ endpoint: 'responses', status: 'failed', streamed: true });
  });

  it('refuses background responses, which the gateway could not meter, in OpenAI’s error body', async () => {
    const error = await gateway.openai(key).responses.create({ model: 'gpt-5.5', input: 'x', background: true }).catch((thrown: unknown) => thrown);
    expect(error).toMatchObject({ status: 400, code: 'background_not_supported', param: 'background' });
  });
});

describe('stored responses', () => {
  beforeAll(async () => {
    openai.answerWith(recordedResponsesAnswer());
    await gateway.openai(key).responses.create({ model: 'openai/gpt-5.5', input: 'Reply with exactly: pong' });
    await gateway.host.drainUsage();
  });

  it('retrieves a response of the project from the provider that made it', async () => {
    openai.received.length = 0;
    const retrieved = await gateway.openai(key).responses.retrieve(TEXT_RESPONSE_ID);
    expect(retrieved.output_text).toBe('pong');
    expect(openai.received[0]).toMatchObject({ method: 'GET', path: `/v1/responses/${TEXT_RESPONSE_ID}` });
    expect(openai.received[0]?.headers.authorization).toBe('Bearer sk-openai-upstream-0123456789');
  });

  it('lists its input items, cancels and deletes it through the same provider, query strings included', async () => {
    openai.received.length = 0;
    const items = await gateway.openai(key).responses.inputItems.list(TEXT_RESPONSE_ID, { limit: 5 });
    expect(items.data[0]).toMatchObject({ type: 'message', role: 'user' });
    const cancelled = await gateway.openai(key).responses.cancel(TEXT_RESPONSE_ID);
    expect(cancelled.status).toBe('cancelled');
    await gateway.openai(key).responses.delete(TEXT_RESPONSE_ID);
    expect(openai.received.map((request) => `${request.method} ${request.path}`)).toEqual([
      `GET /v1/responses/${TEXT_RESPONSE_ID}/input_items?limit=5`,
      `POST /v1/responses/${TEXT_RESPONSE_ID}/cancel`,
      `DELETE /v1/responses/${TEXT_RESPONSE_ID}`,
    ]);
  });

  it('answers 404 to another project, as for an id the gateway never relayed, without asking any provider', async () => {
    openai.received.length = 0;
    for (const [apiKey, id] of [[otherKey, TEXT_RESPONSE_ID], [key, 'resp_never_made']] as const) {
      const error = await gateway.openai(apiKey).responses.retrieve(id).catch((thrown: unknown) => thrown);
      expect(error).toBeInstanceOf(OpenAI.NotFoundError);
      expect(error).toMatchObject({ code: 'response_not_found' });
    }
    expect(openai.received).toEqual([]);
  });

  it('answers 404 below a response for what it does not serve, and 405 for a method it does not take', async () => {
    const headers = { authorization: `Bearer ${key}` };
    const unknown = await fetch(`${gateway.url}/v1/responses/${TEXT_RESPONSE_ID}/something`, { headers });
    expect(unknown.status).toBe(404);
    expect(((await unknown.json()) as { error: { code: string } }).error.code).toBe('not_found');
    const wrongMethod = await fetch(`${gateway.url}/v1/responses/${TEXT_RESPONSE_ID}`, { method: 'PUT', headers });
    expect(wrongMethod.status).toBe(405);
  });

  it('routes previous_response_id to the provider that stored the response, whichever provider the model named', async () => {
    openrouter.answerWith(recordedResponsesAnswer());
    await gateway.openai(key).responses.create({ model: 'openrouter/openai/gpt-5.5', input: 'x', stream: false }).then(() => gateway.host.drainUsage());
    openrouter.answerWith(recordedResponsesAnswer({ json: 'responses-nonstream-function-call.json' }));
    await gateway.openai(key).responses.create({ model: 'openrouter/openai/gpt-5.5', input: 'x' });
    await gateway.host.drainUsage();
    openai.received.length = 0;
    openrouter.received.length = 0;

    await gateway.openai(key).responses.create({ model: 'gpt-5.5', input: 'And then?', previous_response_id: 'resp_67d4472c2fe88190bc9589237f2344530ea042f062abe44d' });

    expect(openai.received).toEqual([]);
    expect(openrouter.received[0]?.body).toMatchObject({ model: 'openai/gpt-5.5', previous_response_id: 'resp_67d4472c2fe88190bc9589237f2344530ea042f062abe44d' });
  });

  it('holds a prepaid project to what a previous_response_id can cost (the stored conversation, up to the model’s context length), not to the few bytes of its body', async () => {
    const prepaidKey = await project('prepaid-chain');
    await gateway.admin({ command: 'model.allow', projectId: 'prepaid-chain', slug: 'openai/gpt-4o-mini', inputMicrosPer1k: 150, outputMicrosPer1k: 600 });
    // Worst cases: a short prompt and 16,384 output tokens ≈ 0.0099 USD; with 128,000 held prompt tokens ≈ 0.0290 USD.
    await gateway.admin({ command: 'project.update', projectId: 'prepaid-chain', balanceUsd: '0.02' });
    openai.answerWith(recordedResponsesAnswer({ json: 'responses-nonstream-reasoning-summary.json' }));
    const first = await gateway.openai(prepaidKey).responses.create({ model: 'openai/gpt-4o-mini', input: 'hello', store: true });
    await gateway.host.drainUsage();
    openai.received.length = 0;

    const error = await gateway
      .openai(prepaidKey)
      .responses.create({ model: 'openai/gpt-4o-mini', input: 'more', previous_response_id: first.id })
      .catch((thrown: unknown) => thrown);
    expect(error).toMatchObject({ status: 402, code: 'insufficient_balance', message: expect.stringContaining('such as a previous_response_id') });
    expect(openai.received).toEqual([]);
  });

  it('answers 404 for a previous_response_id of another project', async () => {
    const error = await gateway.openai(otherKey).responses.create({ model: 'gpt-5.5', input: 'x', previous_response_id: TEXT_RESPONSE_ID }).catch((thrown: unknown) => thrown);
    expect(error).toMatchObject({ status: 404, code: 'previous_response_not_found', param: 'previous_response_id' });
  });

  it("answers 404 for another project's previous_response_id on the editor's route too, and sends nothing upstream", async () => {
    openai.received.length = 0;
    for (const path of ['/v1/editor/chat/completions', '/v1/chat/completions']) {
      const response = await fetch(`${gateway.url}${path}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${otherKey}`, 'content-type': 'application/json', 'user-agent': 'Cursor/1.2' },
        body: JSON.stringify({ model: 'gpt-5.5', input: [{ role: 'user', content: 'x' }], previous_response_id: TEXT_RESPONSE_ID }),
      });
      expect(response.status).toBe(404);
      expect(((await response.json()) as { error: { code: string } }).error.code).toBe('previous_response_not_found');
    }
    expect(openai.received).toEqual([]);
  });
});
