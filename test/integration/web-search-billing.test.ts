import type { ServerResponse } from 'node:http';
import Anthropic from '@anthropic-ai/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sendJson, sendSse, sseEvents, startFakeOpenAiUpstream, type FakeUpstream, type ReceivedRequest } from '../support/fake-openai-upstream.ts';
import { readFixture } from '../support/fixtures.ts';
import { startTestGateway, type TestGateway } from '../support/test-gateway.ts';

/**
 * Anthropic bills its web search tool per search ($10 per 1,000: 10,000 micro-USD each), beside the tokens,
 * and reports the count in `usage.server_tool_use.web_search_requests`. Claude Code's WebSearch tool uses it.
 */
const SEARCHES = 3;
const USAGE = { input_tokens: 1_000, output_tokens: 50, server_tool_use: { web_search_requests: SEARCHES } };

function searchingAnswer(request: ReceivedRequest, response: ServerResponse): void | Promise<void> {
  if (request.body.stream !== true) {
    const message = JSON.parse(readFixture('anthropic/messages-nonstream-text.json')) as Record<string, unknown>;
    return sendJson(response, 200, { ...message, usage: USAGE });
  }
  const events = sseEvents(readFixture('anthropic/messages-stream-text.sse')).map((event) => {
    const data = /^data: (.*)$/m.exec(event)?.[1];
    const payload = JSON.parse(data ?? '{}') as { type?: string; usage?: Record<string, unknown> };
    if (payload.type !== 'message_delta') return event;
    payload.usage = USAGE;
    return `event: message_delta\ndata: ${JSON.stringify(payload)}\n\n`;
  });
  return sendSse(response, events, 1);
}

let gateway: TestGateway;
let upstream: FakeUpstream;
let key: string;
let prepaidKey: string;

beforeAll(async () => {
  upstream = await startFakeOpenAiUpstream();
  upstream.answerWith(searchingAnswer);
  gateway = await startTestGateway();
  for (const projectId of ['searching', 'searching-prepaid']) {
    await gateway.admin({ command: 'project.create', projectId });
    await gateway.admin({ command: 'provider.set', projectId, provider: 'anthropic', apiKey: 'sk-ant-upstream-0123456789', baseUrl: upstream.baseUrl });
    await gateway.admin({ command: 'model.allow', projectId, slug: 'anthropic/claude-sonnet-4-5', inputMicrosPer1k: 3_000, outputMicrosPer1k: 15_000, webSearchMicros: 10_000 });
  }
  await gateway.admin({ command: 'project.update', projectId: 'searching-prepaid', balanceUsd: '0.05' });
  key = (await gateway.admin<{ key: string }>({ command: 'key.create', projectId: 'searching' })).key;
  prepaidKey = (await gateway.admin<{ key: string }>({ command: 'key.create', projectId: 'searching-prepaid' })).key;
});

afterAll(async () => {
  await gateway.close();
  await upstream.close();
});

async function generation(id: string): Promise<Record<string, unknown>> {
  const lookup = () => fetch(`${gateway.url}/v1/generation?id=${id}`, { headers: { authorization: `Bearer ${key}` } });
  await expect.poll(async () => (await lookup()).status, { timeout: 2_000, interval: 50 }).toBe(200);
  return (await (await lookup()).json()) as Record<string, unknown>;
}

const client = (apiKey: string, requestId?: string) =>
  new Anthropic({ apiKey, baseURL: gateway.url, maxRetries: 0, ...(requestId ? { defaultHeaders: { 'X-Request-ID': requestId } } : {}) });
const ask = (maxUses: number) => ({
  model: 'claude-sonnet-4-5',
  max_tokens: 100,
  messages: [{ role: 'user' as const, content: 'What happened today?' }],
  tools: [{ type: 'web_search_20250305' as const, name: 'web_search' as const, max_uses: maxUses }],
});
/** Nano-USD: 1,000 prompt tokens, 50 out, 3 searches. */
const COST = (1_000 * 3_000 + 50 * 15_000 + SEARCHES * 10_000 * 1_000) / 1e9;

describe('web searches a provider runs for the model', () => {
  it('are billed per search at the rate card price, streamed or not, and shown in billed_units', async () => {
    await client(key, 'search-json').messages.create(ask(5));
    await client(key, 'search-stream').messages.stream(ask(5)).finalMessage();
    for (const id of ['search-json', 'search-stream']) {
      const record = await generation(id);
      expect(record.billed_units, id).toMatchObject({ web_searches: SEARCHES });
      expect(record.total_cost, id).toBe(COST);
    }
  });

  it("are reserved from a prepaid balance up to the tool's max_uses: a request that could search past it is refused", async () => {
    // 1,000 searches at 0.01 USD: 10 USD, far beyond the 0.05 USD balance, though its tokens fit.
    const refused = await client(prepaidKey).messages.create(ask(1_000)).catch((error: unknown) => error);
    expect(refused).toMatchObject({ status: 402 });
    // It says what the worst case counts, and what to lower.
    expect((refused as Error).message).toMatch(/and up to 1,000 web searches\). Add credit or lower max_tokens, or a web search tool's max_uses\./);
    await expect(client(prepaidKey).messages.create(ask(2))).resolves.toMatchObject({ type: 'message' });
  });

  it('are billed when the stream breaks off before its final usage: each search counted as its block starts', async () => {
    const frame = (payload: Record<string, unknown>) => `event: ${String(payload.type)}\ndata: ${JSON.stringify(payload)}\n\n`;
    const search = (index: number) => [
      frame({ type: 'content_block_start', index, content_block: { type: 'server_tool_use', id: `srvtoolu_${index}`, name: 'web_search', input: {} } }),
      frame({ type: 'content_block_delta', index, delta: { type: 'input_json_delta', partial_json: '{"query":"news today"}' } }),
      frame({ type: 'content_block_stop', index }),
    ];
    upstream.answerWith(async (_request, response) => {
      await sendSse(response, [
        frame({ type: 'message_start', message: { id: 'msg_cut', type: 'message', role: 'assistant', model: 'claude-sonnet-4-5', content: [], stop_reason: null, usage: { input_tokens: 1_000, output_tokens: 1 } } }),
        ...search(0),
        ...search(1),
      ], 1);
      // The connection drops before message_delta, which would have carried server_tool_use.web_search_requests.
      response.socket?.destroy();
    });
    try {
      const stream = client(key, 'search-cut').messages.stream(ask(5));
      await expect(stream.finalMessage()).rejects.toThrow();
      const record = await generation('search-cut');
      expect(record).toMatchObject({ status: 'failed', billed_units: { web_searches: 2 } });
    } finally {
      upstream.answerWith(searchingAnswer);
    }
  });

  it("are listed with the model's prices as pricing.web_search, USD per search", async () => {
    const models = (await (await fetch(`${gateway.url}/v1/models`, { headers: { authorization: `Bearer ${key}` } })).json()) as { data: Array<{ id: string; pricing: Record<string, string> }> };
    expect(models.data.find((model) => model.id === 'anthropic/claude-sonnet-4-5')?.pricing.web_search).toBe('0.01');
  });
});
