import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryLocalUsage } from '../../tools/cli/local-usage-query.ts';
import { startFakeOpenAiUpstream, sendJson, sendSse, sseEvents, type FakeUpstream } from '../support/fake-openai-upstream.ts';
import { readFixture } from '../support/fixtures.ts';
import { createProjectWithKey, startTestGateway, type TestGateway } from '../support/test-gateway.ts';

let gateway: TestGateway;
let upstream: FakeUpstream;
let plainKey: string;
let injectingKey: string;

// 150 and 600 micro-USD per 1k tokens: 150 and 600 nano-USD per token.
const priced = [{ slug: 'openai/gpt-4o-mini', inputMicrosPer1k: 150, outputMicrosPer1k: 600 }];

beforeAll(async () => {
  upstream = await startFakeOpenAiUpstream();
  gateway = await startTestGateway();
  plainKey = await createProjectWithKey(gateway, { projectId: 'plain', baseUrl: upstream.baseUrl, models: priced });
  injectingKey = await createProjectWithKey(gateway, { projectId: 'injecting', baseUrl: upstream.baseUrl, models: priced });
  await gateway.admin({ command: 'project.update', projectId: 'injecting', usageInjection: true });
});

afterAll(async () => {
  await gateway.close();
  await upstream.close();
});

const hello = { model: 'openai/gpt-4o-mini', messages: [{ role: 'user' as const, content: 'hi' }] };

interface Generation {
  id: string;
  model: string;
  provider: string;
  tokens_prompt: number;
  tokens_completion: number;
  total_cost: number;
  usage: { prompt_tokens: number; completion_tokens: number; total_tokens: number; cost: number };
  fallback_attempts: number;
  latency_ms: number;
  streamed: boolean;
  estimated: boolean;
  status: string;
  finish_reason: string | null;
  native_tokens_cached: number;
  environment: string | null;
  app_title: string | null;
  session_id: string | null;
  key_id: string;
  data: unknown;
}

async function lookup(key: string, id: string) {
  const response = await fetch(`${gateway.url}/v1/generation?id=${encodeURIComponent(id)}`, { headers: { authorization: `Bearer ${key}` } });
  return { status: response.status, body: (await response.json()) as Generation & { error?: { code: string; message: string } } };
}

/** Waits for the writer, as a client would poll: locally a record is visible within 2 s of the response ending. */
async function generation(key: string, id: string): Promise<Generation> {
  await expect.poll(async () => (await lookup(key, id)).status, { timeout: 2_000, interval: 50 }).toBe(200);
  return (await lookup(key, id)).body;
}

describe('metering without usage-cost injection', () => {
  it('returns the upstream body untouched and records tokens and exact cost', async () => {
    const recorded = readFixture('openai-chat/chat-nonstream-cached-tokens.json');
    upstream.answerWith((_request, response) => sendJson(response, 200, recorded));

    const response = await fetch(`${gateway.url}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${plainKey}`, 'content-type': 'application/json', 'x-request-id': 'plain-1', 'x-environment': 'staging', 'x-title': 'Metering test' },
      body: JSON.stringify(hello),
    });
    expect(await response.text()).toBe(recorded);

    const record = await generation(plainKey, 'plain-1');
    // 10122 prompt tokens (9984 cached, priced as input: no cached price set) and the fixture's completion tokens.
    const usage = (JSON.parse(recorded) as { usage: { prompt_tokens: number; completion_tokens: number } }).usage;
    const costNanos = usage.prompt_tokens * 150 + usage.completion_tokens * 600;
    expect(record).toMatchObject({
      id: 'plain-1',
      model: 'openai/gpt-4o-mini',
      provider: 'openai',
      tokens_prompt: usage.prompt_tokens,
      tokens_completion: usage.completion_tokens,
      native_tokens_cached: 9984,
      total_cost: costNanos / 1e9,
      usage: { prompt_tokens: usage.prompt_tokens, completion_tokens: usage.completion_tokens, total_tokens: usage.prompt_tokens + usage.completion_tokens, cost: costNanos / 1e9 },
      fallback_attempts: 0,
      streamed: false,
      estimated: false,
      status: 'completed',
      environment: 'staging',
      app_title: 'Metering test',
    });
    expect(record.latency_ms).toBeGreaterThanOrEqual(0);
    expect(record.data).toEqual({ ...record, data: undefined, ...(record.data as object) });
  });

  it('asks the upstream for stream usage but hides the usage chunk the client did not ask for', async () => {
    upstream.answerWith((_request, response) => sendSse(response, sseEvents(readFixture('openai-chat/chat-stream-text-include-usage.sse'))));
    upstream.received.length = 0;

    const { data: stream, response } = await gateway.openai(plainKey).chat.completions.create({ ...hello, stream: true }).withResponse();
    const chunks = [];
    for await (const chunk of stream) chunks.push(chunk);

    expect(upstream.received[0]?.body.stream_options).toEqual({ include_usage: true });
    expect(chunks.some((chunk) => chunk.usage)).toBe(false);
    const record = await generation(plainKey, response.headers.get('x-request-id') ?? '');
    expect(record).toMatchObject({ streamed: true, estimated: false, finish_reason: 'stop' });
    expect(record.tokens_prompt).toBeGreaterThan(0);
  });

  it('shows the usage chunk unchanged, without cost, to a client that asked for it', async () => {
    upstream.answerWith((_request, response) => sendSse(response, sseEvents(readFixture('openai-chat/chat-stream-text-include-usage.sse'))));

    const stream = await gateway.openai(plainKey).chat.completions.create({ ...hello, stream: true, stream_options: { include_usage: true } });
    const usages = [];
    for await (const chunk of stream) if (chunk.usage) usages.push(chunk.usage as unknown as Record<string, unknown>);

    expect(usages).toHaveLength(1);
    expect(usages[0]).not.toHaveProperty('cost');
  });

  it('estimates with a tokenizer, and says so, when the upstream reports no usage', async () => {
    upstream.answerWith((_request, response) =>
      sendJson(response, 200, { id: 'x', object: 'chat.completion', created: 1, model: 'gpt-4o-mini', choices: [{ index: 0, message: { role: 'assistant', content: 'Hello world, this is a test' }, finish_reason: 'stop' }] }),
    );
    await gateway.openai(plainKey).chat.completions.create(hello, { headers: { 'X-Request-ID': 'no-usage-1' } });

    const record = await generation(plainKey, 'no-usage-1');
    expect(record).toMatchObject({ estimated: true, tokens_completion: 7 });
    expect(record.tokens_prompt).toBeGreaterThan(0);
  });

  it('records a request the upstream failed, at no cost', async () => {
    upstream.answerWith((_request, response) => sendJson(response, 500, { error: { message: 'boom' } }));
    await gateway.openai(plainKey).chat.completions.create(hello, { headers: { 'X-Request-ID': 'failed-1' } }).catch(() => undefined);

    expect(await generation(plainKey, 'failed-1')).toMatchObject({ status: 'failed', total_cost: 0, tokens_prompt: 0 });
  });
});

describe('metering with usage-cost injection', () => {
  it('adds usage.cost as an exact decimal to a non-streaming response', async () => {
    upstream.answerWith((_request, response) => sendJson(response, 200, readFixture('openai-chat/chat-nonstream-text-usage-details.json')));
    const response = await fetch(`${gateway.url}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${injectingKey}`, 'content-type': 'application/json' },
      body: JSON.stringify(hello),
    });
    const text = await response.text();
    const { usage } = JSON.parse(text) as { usage: { prompt_tokens: number; completion_tokens: number; cost: number } };

    const costNanos = usage.prompt_tokens * 150 + usage.completion_tokens * 600;
    expect(usage.cost).toBe(costNanos / 1e9);
    expect(text).not.toMatch(/"cost":[0-9.]+e-/);
  });

  it('puts usage with cost in the final chunk before [DONE], even when the client did not ask', async () => {
    upstream.answerWith((_request, response) => sendSse(response, sseEvents(readFixture('openai-chat/chat-stream-tool-calls-include-usage.sse'))));
    const response = await fetch(`${gateway.url}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${injectingKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ ...hello, stream: true }),
    });
    const events = sseEvents(await response.text());

    expect(events.at(-1)).toBe('data: [DONE]\n\n');
    const last = JSON.parse((events.at(-2) ?? '').slice('data: '.length)) as { usage: { prompt_tokens: number; completion_tokens: number; cost: number } };
    expect(last.usage.cost).toBe((last.usage.prompt_tokens * 150 + last.usage.completion_tokens * 600) / 1e9);
  });
});

describe('GET /v1/generation', () => {
  it('answers 404 with a "not found yet" message for an unknown id, and 400 without an id', async () => {
    const unknown = await lookup(plainKey, 'never-sent');
    const missing = await fetch(`${gateway.url}/v1/generation`, { headers: { authorization: `Bearer ${plainKey}` } });

    expect(unknown.status).toBe(404);
    expect(unknown.body.error?.message).toMatch(/not found yet.*written asynchronously/);
    expect(missing.status).toBe(400);
  });

  it('never shows a record to a key of another project', async () => {
    upstream.answerWith((_request, response) => sendJson(response, 200, readFixture('openai-chat/chat-nonstream-tool-calls.json')));
    await gateway.openai(plainKey).chat.completions.create(hello, { headers: { 'X-Request-ID': 'private-1' } });
    await generation(plainKey, 'private-1');

    expect((await lookup(injectingKey, 'private-1')).status).toBe(404);
  });

  it('counts both requests when a client reuses its X-Request-ID, and shows the latest', async () => {
    const before = await gateway.admin<{ request_count: number }>({ command: 'project.get', projectId: 'plain' });
    upstream.answerWith((_request, response) => sendJson(response, 200, readFixture('openai-chat/chat-nonstream-tool-calls.json')));
    await gateway.openai(plainKey).chat.completions.create(hello, { headers: { 'X-Request-ID': 'reused-1' } });
    upstream.answerWith((_request, response) => sendJson(response, 200, readFixture('openai-chat/chat-nonstream-reasoning-tokens.json')));
    await gateway.openai(plainKey).chat.completions.create(hello, { headers: { 'X-Request-ID': 'reused-1' } });
    await gateway.host.drainUsage();

    const after = await gateway.admin<{ request_count: number }>({ command: 'project.get', projectId: 'plain' });
    expect(after.request_count - before.request_count).toBe(2);
    expect((await generation(plainKey, 'reused-1')).finish_reason).toBe('stop');
  });
});

describe('usage files', () => {
  it('answers SQL over the records real requests produced, with the project spend to the nano-dollar', async () => {
    await gateway.host.drainUsage();
    const [row] = await queryLocalUsage(gateway.host.dataDir, "SELECT COUNT(*) AS requests, SUM(cost_nanos) AS cost_nanos FROM usage_records WHERE project_id = 'plain'");
    const project = await gateway.admin<{ request_count: number; spent_usd: string }>({ command: 'project.get', projectId: 'plain' });

    expect(row?.requests).toBe(project.request_count);
    expect(Number(row?.cost_nanos) / 1e9).toBe(Number(project.spent_usd));
  });
});

describe('cached prompt tokens', () => {
  it('are priced at the cached-input price when the rate card has one', async () => {
    await gateway.admin({ command: 'model.allow', projectId: 'plain', slug: 'openai/gpt-4o-mini', inputMicrosPer1k: 150, outputMicrosPer1k: 600, cachedInputMicrosPer1k: 75 });
    const recorded = readFixture('openai-chat/chat-nonstream-cached-tokens.json');
    upstream.answerWith((_request, response) => sendJson(response, 200, recorded));
    await gateway.openai(plainKey).chat.completions.create(hello, { headers: { 'X-Request-ID': 'cached-1' } });

    const usage = (JSON.parse(recorded) as { usage: { prompt_tokens: number; completion_tokens: number } }).usage;
    const costNanos = (usage.prompt_tokens - 9984) * 150 + 9984 * 75 + usage.completion_tokens * 600;
    expect((await generation(plainKey, 'cached-1')).total_cost).toBe(costNanos / 1e9);
    const models = await gateway.openai(plainKey).models.list();
    expect((models.data[0] as unknown as { pricing: Record<string, string> }).pricing.input_cache_read).toBe('0.000000075');
  });
});

describe('generation cost rendering', () => {
  it('shows a tiny cost as an exact decimal, never in exponent notation', async () => {
    upstream.answerWith((_request, response) =>
      sendJson(response, 200, { id: 'tiny', object: 'chat.completion', created: 1, model: 'gpt-4o-mini', choices: [{ index: 0, message: { role: 'assistant', content: 'ok' }, finish_reason: 'stop' }], usage: { prompt_tokens: 1, completion_tokens: 0, total_tokens: 1 } }),
    );
    await gateway.admin({ command: 'model.allow', projectId: 'plain', slug: 'openai/gpt-4o-mini', inputMicrosPer1k: 150, outputMicrosPer1k: 600 });
    await gateway.openai(plainKey).chat.completions.create(hello, { headers: { 'X-Request-ID': 'tiny-1' } });
    await generation(plainKey, 'tiny-1');

    const text = await (await fetch(`${gateway.url}/v1/generation?id=tiny-1`, { headers: { authorization: `Bearer ${plainKey}` } })).text();
    expect(text).toContain('"total_cost":0.00000015');
    expect(text).not.toMatch(/e-\d/);
  });
});

describe('time to first byte', () => {
  it('records how long the serving upstream took to answer', async () => {
    upstream.answerWith((_request, response) => {
      setTimeout(() => sendJson(response, 200, readFixture('openai-chat/chat-nonstream-tool-calls.json')), 60);
    });
    await gateway.openai(plainKey).chat.completions.create(hello, { headers: { 'X-Request-ID': 'ttfb-1' } });
    const record = (await generation(plainKey, 'ttfb-1')) as unknown as { time_to_first_byte_ms: number; latency_ms: number };
    expect(record.time_to_first_byte_ms).toBeGreaterThanOrEqual(55);
    expect(record.latency_ms).toBeGreaterThanOrEqual(record.time_to_first_byte_ms);
  });
});
