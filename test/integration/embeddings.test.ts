import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeOpenAiUpstream, sendJson, type FakeUpstream } from '../support/fake-openai-upstream.ts';
import { readFixture } from '../support/fixtures.ts';
import { createProjectWithKey, startTestGateway, type TestGateway } from '../support/test-gateway.ts';
import { generationOf } from '../support/generation-lookup.ts';

let gateway: TestGateway;
let upstream: FakeUpstream;
let key: string;
let injectingKey: string;

const base64Answer = readFixture('other/openai-embeddings-base64-dim128.json');
const floatAnswer = readFixture('other/openai-embeddings-float.json');
const models = [
  { slug: 'openai/text-embedding-3-small', kind: 'embedding', inputMicrosPer1k: 20, requestMicros: 3 },
  { slug: 'openai/gpt-4o-mini', inputMicrosPer1k: 150, outputMicrosPer1k: 600 },
];

beforeAll(async () => {
  upstream = await startFakeOpenAiUpstream();
  gateway = await startTestGateway();
  key = await createProjectWithKey(gateway, { projectId: 'vectors', baseUrl: upstream.baseUrl, models });
  injectingKey = await createProjectWithKey(gateway, { projectId: 'vectors-cost', baseUrl: upstream.baseUrl, models });
  await gateway.admin({ command: 'project.update', projectId: 'vectors-cost', usageInjection: true });
});

afterAll(async () => {
  await gateway?.close();
  await upstream?.close();
});

describe('POST /v1/embeddings through the openai SDK', () => {
  it('forwards the request natively (the SDK asks for base64) and decodes the recorded vector', async () => {
    upstream.answerWith((_request, response) => sendJson(response, 200, base64Answer));
    const client = gateway.openai(key, { defaultHeaders: { 'x-request-id': 'embed-1' } });

    const answer = await client.embeddings.create({ model: 'openai/text-embedding-3-small', input: ['Hello, world!'], dimensions: 128 });

    const recorded = JSON.parse(base64Answer) as { data: Array<{ embedding: string }>; usage: { prompt_tokens: number } };
    const bytes = Buffer.from(recorded.data[0]?.embedding ?? '', 'base64');
    const expected = Array.from({ length: bytes.length / 4 }, (_, index) => bytes.readFloatLE(index * 4));
    expect(answer.data[0]?.embedding).toEqual(expected);
    expect(expected).toHaveLength(128);
    expect(upstream.received.at(-1)).toMatchObject({ path: '/v1/embeddings', body: { model: 'text-embedding-3-small', input: ['Hello, world!'], dimensions: 128, encoding_format: 'base64' } });

    const record = await generationOf(gateway, key, 'embed-1');
    // 4 prompt tokens at 20 nano-USD each, and the request at 3 micro-USD.
    expect(record).toMatchObject({ model: 'openai/text-embedding-3-small', endpoint: 'embeddings', tokens_prompt: recorded.usage.prompt_tokens, tokens_completion: 0, estimated: false });
    expect(record.total_cost).toBeCloseTo((recorded.usage.prompt_tokens * 20 + 3_000) / 1e9, 12);
    expect(record.billed_units).toMatchObject({ requests: 1 });
  });

  it('passes float vectors, string arrays and routing fields as the client meant them', async () => {
    upstream.answerWith((_request, response) => sendJson(response, 200, floatAnswer));
    const client = gateway.openai(key);

    const answer = await client.embeddings.create({
      model: 'text-embedding-3-small',
      input: ['sunny day at the beach', 'rainy day in the city'],
      encoding_format: 'float',
      // @ts-expect-error routing-only fields are the gateway's, not the SDK's
      route: 'fallback',
    });

    expect(answer.data.map((item) => item.embedding)).toEqual((JSON.parse(floatAnswer) as { data: Array<{ embedding: number[] }> }).data.map((item) => item.embedding));
    const sent = upstream.received.at(-1)?.body ?? {};
    expect(sent).toEqual({ model: 'text-embedding-3-small', input: ['sunny day at the beach', 'rainy day in the city'], encoding_format: 'float' });
  });

  it('takes token arrays as input', async () => {
    upstream.answerWith((_request, response) => sendJson(response, 200, floatAnswer));
    await gateway.openai(key).embeddings.create({ model: 'openai/text-embedding-3-small', input: [[9906, 11, 1917, 0], [15339]], encoding_format: 'float' });
    expect(upstream.received.at(-1)?.body.input).toEqual([[9906, 11, 1917, 0], [15339]]);
  });

  it('bills token arrays by their length when the provider reports no usage (the tokenizer sees no text in them)', async () => {
    const withoutUsage = { ...(JSON.parse(floatAnswer) as Record<string, unknown>), usage: undefined };
    upstream.answerWith((_request, response) => sendJson(response, 200, withoutUsage));
    const client = gateway.openai(key, { defaultHeaders: { 'x-request-id': 'embed-token-ids' } });

    await client.embeddings.create({ model: 'openai/text-embedding-3-small', input: [[9906, 11, 1917, 0], [15339]], encoding_format: 'float' });

    const record = await generationOf(gateway, key, 'embed-token-ids');
    expect(record).toMatchObject({ tokens_prompt: 5, estimated: true });
    // 5 prompt tokens at 20 nano-USD each, and the request at 3 micro-USD.
    expect(record.total_cost).toBeCloseTo((5 * 20 + 3_000) / 1e9, 12);
  });

  it('adds usage.cost to the answer when the project injects usage cost', async () => {
    upstream.answerWith((_request, response) => sendJson(response, 200, floatAnswer));
    const response = await fetch(`${gateway.url}/v1/embeddings`, {
      method: 'POST',
      headers: { authorization: `Bearer ${injectingKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'openai/text-embedding-3-small', input: 'x', encoding_format: 'float' }),
    });
    const body = (await response.json()) as { usage: Record<string, unknown> };
    // 12 tokens at 20 nano-USD, and 3,000 nano-USD for the request.
    expect(body.usage).toEqual({ prompt_tokens: 12, total_tokens: 12, cost: 0.00000324 });
  });

  it('refuses a chat model with 400 model_unsupported_for_endpoint before any upstream call', async () => {
    const before = upstream.received.length;
    const refusal = await gateway
      .openai(key)
      .embeddings.create({ model: 'openai/gpt-4o-mini', input: 'x' })
      .catch((error: unknown) => error);
    expect(refusal).toMatchObject({ status: 400, code: 'model_unsupported_for_endpoint' });
    expect(upstream.received.length).toBe(before);
  });

  it("answers a provider's HTML error page (nginx's 400) as OpenAI's error, with its status and the page's words", async () => {
    upstream.answerWith((_request, response) => sendJson(response, 400, readFixture('other/nginx-400-bad-request.html'), { 'content-type': 'text/html' }));
    const refusal = await gateway
      .openai(key)
      .embeddings.create({ model: 'openai/text-embedding-3-small', input: 'x' })
      .catch((error: unknown) => error);
    expect(refusal).toMatchObject({ status: 400, type: 'invalid_request_error', error: { message: '400 Bad Request nginx', type: 'invalid_request_error' } });
  });

  it.each([
    ['an empty string as input', { input: '' }, 'input', /must not be an empty string/],
    ['an empty array as input', { input: [] }, 'input', /must not be an empty string, an empty array/],
    ['an array holding an empty string', { input: ['sunny day', ''] }, 'input', /an array holding an empty string/],
    ['an encoding_format other than float or base64', { input: 'x', encoding_format: 'int8' }, 'encoding_format', /"int8" is not a supported value; supported values are 'float' and 'base64'/],
  ])("refuses %s with 400 in OpenAI's format, naming the field, before any upstream call", async (_what, fields, param, message) => {
    const before = upstream.received.length;
    const refusal = await gateway
      .openai(key)
      // @ts-expect-error values the SDK's types rule out, as a careless client sends them
      .embeddings.create({ model: 'openai/text-embedding-3-small', ...fields })
      .catch((error: unknown) => error);
    expect(refusal).toBeInstanceOf(OpenAI.BadRequestError);
    expect(refusal).toMatchObject({ status: 400, type: 'invalid_request_error', code: 'invalid_request_body', param });
    expect((refusal as InstanceType<typeof OpenAI.BadRequestError>).message).toMatch(message);
    expect(upstream.received.length).toBe(before);
  });

  it('refuses a body without input with 400 naming the field', async () => {
    const response = await fetch(`${gateway.url}/v1/embeddings`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'openai/text-embedding-3-small' }),
    });
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ error: { code: 'invalid_request_body', param: 'input' } });
  });
});

describe('POST /v1/embeddings failover', () => {
  it('moves on to the same model under another provider when the first answers 429, and meters the one that served', async () => {
    const backup = await startFakeOpenAiUpstream();
    try {
      await gateway.admin({ command: 'project.create', projectId: 'vectors-failover' });
      await gateway.admin({ command: 'project.update', projectId: 'vectors-failover', failover: true });
      await gateway.admin({ command: 'provider.set', projectId: 'vectors-failover', provider: 'openai', protocol: 'openai', baseUrl: upstream.baseUrl, apiKey: 'sk-first-0123456789' });
      await gateway.admin({ command: 'provider.set', projectId: 'vectors-failover', provider: 'openrouter', protocol: 'openai', baseUrl: backup.baseUrl, apiKey: 'sk-or-second-0123456789' });
      await gateway.admin({ command: 'model.allow', projectId: 'vectors-failover', slug: 'openai/text-embedding-3-small', kind: 'embedding' });
      await gateway.admin({ command: 'model.allow', projectId: 'vectors-failover', slug: 'openrouter/openai/text-embedding-3-small', kind: 'embedding' });
      const { key: failoverKey } = await gateway.admin<{ key: string }>({ command: 'key.create', projectId: 'vectors-failover' });
      upstream.answerWith((_request, response) => sendJson(response, 429, { error: { message: 'Rate limit reached', type: 'requests', code: 'rate_limit_exceeded' } }, { 'retry-after': '3' }));
      backup.answerWith((_request, response) => sendJson(response, 200, floatAnswer));

      const answer = await gateway.openai(failoverKey, { defaultHeaders: { 'x-request-id': 'embed-failover' } }).embeddings.create({ model: 'openai/text-embedding-3-small', input: 'x', encoding_format: 'float' });

      expect(answer.data).toHaveLength(2);
      expect(backup.received.at(-1)?.body).toMatchObject({ model: 'openai/text-embedding-3-small', input: 'x' });
      expect(await generationOf(gateway, failoverKey, 'embed-failover')).toMatchObject({ provider: 'openrouter', model: 'openrouter/openai/text-embedding-3-small' });
    } finally {
      await backup.close();
    }
  });
});
