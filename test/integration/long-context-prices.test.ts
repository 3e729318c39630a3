import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sendJson, startFakeOpenAiUpstream, type FakeUpstream, type ReceivedRequest } from '../support/fake-openai-upstream.ts';
import { createProjectWithKey, startTestGateway, type TestGateway } from '../support/test-gateway.ts';

/**
 * OpenAI bills its newest models' prompts above 272K tokens at twice the input price and 1.5 times the output
 * price, the whole request. The fake upstream reports a long prompt when the user asks for one.
 */
const SHORT = { prompt_tokens: 1_000, completion_tokens: 50, prompt_tokens_details: { cached_tokens: 0 } };
const LONG = { prompt_tokens: 300_000, completion_tokens: 50, prompt_tokens_details: { cached_tokens: 200_000 } };

function answerWithUsage(request: ReceivedRequest, response: import('node:http').ServerResponse): void {
  const long = JSON.stringify(request.body.messages).includes('long');
  sendJson(response, 200, {
    id: 'chatcmpl-long',
    object: 'chat.completion',
    created: 1_700_000_000,
    model: 'gpt-5.4',
    choices: [{ index: 0, message: { role: 'assistant', content: 'Read it all.' }, finish_reason: 'stop' }],
    usage: long ? LONG : SHORT,
  });
}

let gateway: TestGateway;
let upstream: FakeUpstream;
let key: string;

beforeAll(async () => {
  upstream = await startFakeOpenAiUpstream();
  upstream.answerWith(answerWithUsage);
  gateway = await startTestGateway();
  key = await createProjectWithKey(gateway, {
    projectId: 'long-prompts',
    baseUrl: upstream.baseUrl,
    models: [
      {
        slug: 'openai/gpt-5.4',
        inputMicrosPer1k: 2_500,
        outputMicrosPer1k: 15_000,
        cachedInputMicrosPer1k: 250,
        longContextAboveTokens: 272_000,
        longContextInputMicrosPer1k: 5_000,
        longContextOutputMicrosPer1k: 22_500,
      },
    ],
  });
});

afterAll(async () => {
  await gateway.close();
  await upstream.close();
});

async function totalCost(id: string): Promise<number> {
  const lookup = () => fetch(`${gateway.url}/v1/generation?id=${id}`, { headers: { authorization: `Bearer ${key}` } });
  await expect.poll(async () => (await lookup()).status, { timeout: 2_000, interval: 50 }).toBe(200);
  return ((await (await lookup()).json()) as { total_cost: number }).total_cost;
}

describe('long-context prices', () => {
  it('bills a prompt above the threshold at the long-context prices, all of it, and a short one at the standard prices', async () => {
    const client = (requestId: string) => gateway.openai(key, { defaultHeaders: { 'X-Request-ID': requestId } });
    await client('short-prompt').chat.completions.create({ model: 'openai/gpt-5.4', messages: [{ role: 'user', content: 'short' }] });
    await client('long-prompt').chat.completions.create({ model: 'openai/gpt-5.4', messages: [{ role: 'user', content: 'long' }] });

    expect(await totalCost('short-prompt')).toBe((1_000 * 2_500 + 50 * 15_000) / 1e9);
    // 100,000 uncached at $5/M, 200,000 cache reads at $0.50/M (the cached price scaled as the input price is), 50 out at $22.50/M.
    expect(await totalCost('long-prompt')).toBe((100_000 * 5_000 + 200_000 * 500 + 50 * 22_500) / 1e9);
  });

  it('lists the tier in the model list: its threshold and the prices billed above it, derived ones included', async () => {
    const models = (await (await fetch(`${gateway.url}/v1/models`, { headers: { authorization: `Bearer ${key}` } })).json()) as { data: Array<{ id: string; pricing: Record<string, string>; long_context_above_tokens?: number }> };
    const entry = models.data.find((model) => model.id === 'openai/gpt-5.4');
    // The threshold beside the prices, not among them: every pricing value is a price.
    expect(entry?.long_context_above_tokens).toBe(272_000);
    expect(entry?.pricing).not.toHaveProperty('long_context_above_tokens');
    expect(entry?.pricing).toMatchObject({
      prompt: '0.0000025',
      completion: '0.000015',
      input_cache_read: '0.00000025',
      prompt_long_context: '0.000005',
      completion_long_context: '0.0000225',
      input_cache_read_long_context: '0.0000005',
    });
  });
});
