import type { ServerResponse } from 'node:http';
import Anthropic from '@anthropic-ai/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sendJson, sendSse, sseEvents, startFakeOpenAiUpstream, type FakeUpstream, type ReceivedRequest } from '../support/fake-openai-upstream.ts';
import { readFixture } from '../support/fixtures.ts';
import { startTestGateway, type TestGateway } from '../support/test-gateway.ts';

/**
 * Claude Code marks its prompt `cache_control: {type: "ephemeral", ttl: "1h"}`; Anthropic then reports the
 * writes by lifetime in `usage.cache_creation` and bills the one-hour ones at twice the input price.
 */
const USAGE = {
  input_tokens: 5,
  cache_creation_input_tokens: 3_000,
  cache_read_input_tokens: 400,
  cache_creation: { ephemeral_5m_input_tokens: 1_000, ephemeral_1h_input_tokens: 2_000 },
};
const OUTPUT_TOKENS = 20;

/** The recorded text stream and answer, with the usage of a turn that wrote a one-hour cache. */
function oneHourCacheAnswer(request: ReceivedRequest, response: ServerResponse): void | Promise<void> {
  if (request.body.stream !== true) {
    const message = JSON.parse(readFixture('anthropic/messages-nonstream-text.json')) as Record<string, unknown>;
    return sendJson(response, 200, { ...message, usage: { ...USAGE, output_tokens: OUTPUT_TOKENS } });
  }
  const events = sseEvents(readFixture('anthropic/messages-stream-text.sse')).map((event) => {
    const data = /^data: (.*)$/m.exec(event)?.[1];
    const payload = JSON.parse(data ?? '{}') as { type?: string; message?: Record<string, unknown>; usage?: Record<string, unknown> };
    if (payload.type === 'message_start') payload.message = { ...payload.message, usage: { ...USAGE, output_tokens: 1 } };
    else if (payload.type === 'message_delta') payload.usage = { ...USAGE, cache_creation: undefined, output_tokens: OUTPUT_TOKENS };
    else return event;
    return `event: ${payload.type}\ndata: ${JSON.stringify(payload)}\n\n`;
  });
  return sendSse(response, events, 1);
}

let gateway: TestGateway;
let upstream: FakeUpstream;
let key: string;
let ownPriceKey: string;

beforeAll(async () => {
  upstream = await startFakeOpenAiUpstream();
  upstream.answerWith(oneHourCacheAnswer);
  gateway = await startTestGateway();
  const prices = { inputMicrosPer1k: 1_000, outputMicrosPer1k: 5_000, cachedInputMicrosPer1k: 100, cacheWriteInputMicrosPer1k: 1_250 };
  for (const [projectId, own] of [['hour-cache', {}], ['hour-cache-priced', { cacheWrite1hInputMicrosPer1k: 1_800 }]] as const) {
    await gateway.admin({ command: 'project.create', projectId });
    await gateway.admin({ command: 'provider.set', projectId, provider: 'anthropic', apiKey: 'sk-ant-upstream-0123456789', baseUrl: upstream.baseUrl });
    await gateway.admin({ command: 'model.allow', projectId, slug: 'anthropic/claude-haiku-4-5', ...prices, ...own });
  }
  key = (await gateway.admin<{ key: string }>({ command: 'key.create', projectId: 'hour-cache' })).key;
  ownPriceKey = (await gateway.admin<{ key: string }>({ command: 'key.create', projectId: 'hour-cache-priced' })).key;
});

afterAll(async () => {
  await gateway.close();
  await upstream.close();
});

async function generation(id: string, apiKey = key): Promise<Record<string, unknown>> {
  const lookup = () => fetch(`${gateway.url}/v1/generation?id=${id}`, { headers: { authorization: `Bearer ${apiKey}` } });
  await expect.poll(async () => (await lookup()).status, { timeout: 2_000, interval: 50 }).toBe(200);
  return (await (await lookup()).json()) as Record<string, unknown>;
}

const ask = { model: 'claude-haiku-4-5', max_tokens: 64, messages: [{ role: 'user' as const, content: 'Hello' }] };
const client = (requestId: string, authToken = key) =>
  new Anthropic({ authToken, apiKey: null, baseURL: gateway.url, maxRetries: 0, defaultHeaders: { 'X-Request-ID': requestId } });

/** Nano-USD: 5 uncached, 400 read, 1,000 written for five minutes, 2,000 for an hour at `hourPrice`, 20 out. */
const cost = (hourPrice: number) => (5 * 1_000 + 400 * 100 + 1_000 * 1_250 + 2_000 * hourPrice + OUTPUT_TOKENS * 5_000) / 1e9;

describe('one-hour prompt-cache writes', () => {
  it('bills a streamed turn\'s one-hour writes at twice the input price when the rate card names no price of its own', async () => {
    await client('hour-stream').messages.stream(ask).finalMessage();
    const record = await generation('hour-stream');
    expect(record).toMatchObject({ tokens_prompt: 5 + 3_000 + 400, native_tokens_cache_write: 3_000, native_tokens_cache_write_1h: 2_000 });
    expect(record.total_cost).toBe(cost(2_000));
  });

  it("bills them at the rate card's one-hour price when it has one, streamed or not", async () => {
    await client('hour-json', ownPriceKey).messages.create(ask);
    expect((await generation('hour-json', ownPriceKey)).total_cost).toBe(cost(1_800));
  });

  it('bills them the same when a chat client reaches Claude through translation', async () => {
    const response = await fetch(`${gateway.url}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', 'x-request-id': 'hour-chat' },
      body: JSON.stringify({ model: 'claude-haiku-4-5', stream: true, messages: [{ role: 'user', content: 'Hello' }] }),
    });
    await response.text();
    const record = await generation('hour-chat');
    expect(record.native_tokens_cache_write_1h).toBe(2_000);
    expect(record.total_cost).toBe(cost(2_000));
  });
});
