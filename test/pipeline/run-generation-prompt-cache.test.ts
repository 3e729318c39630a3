import { describe, expect, it } from 'vitest';
import { chatCompletionsEndpoint } from '../../shared/endpoints/chat-completions.ts';
import type { GatewayRequest } from '../../shared/http/gateway-http.ts';
import { runGeneration } from '../../shared/pipeline/run-generation.ts';
import { createFakeGateway, FAKE_KEY, fakeProvider } from '../support/fake-gateway-services.ts';

function request(body: Record<string, unknown>, path = '/v1/chat/completions'): GatewayRequest {
  return { method: 'POST', path, query: new URLSearchParams(), headers: { authorization: `Bearer ${FAKE_KEY}` }, body: Buffer.from(JSON.stringify(body)), sourceIp: '127.0.0.1' };
}

const route = { requestId: 'gen-unit-1', receivedAt: Date.now() };

describe('runGeneration prices the prompt cache that OpenAI-compatible providers report in fields of their own', () => {
  const completion = (usage: Record<string, unknown>) =>
    JSON.stringify({ id: 'chatcmpl-1', object: 'chat.completion', model: 'm', choices: [{ index: 0, message: { role: 'assistant', content: 'Hi' }, finish_reason: 'stop' }], usage });
  const stream = (usage: Record<string, unknown>) =>
    [
      { id: 'chatcmpl-1', object: 'chat.completion.chunk', model: 'm', choices: [{ index: 0, delta: { role: 'assistant', content: 'Hi' }, finish_reason: null }] },
      { id: 'chatcmpl-1', object: 'chat.completion.chunk', model: 'm', choices: [{ index: 0, delta: {}, finish_reason: 'stop' }] },
      { id: 'chatcmpl-1', object: 'chat.completion.chunk', model: 'm', choices: [], usage },
    ]
      .map((chunk) => `data: ${JSON.stringify(chunk)}\n\n`)
      .join('') + 'data: [DONE]\n\n';
  const bodyText = async (body: unknown) => (typeof body === 'string' ? body : await new Response(body as ReadableStream).text());

  // DeepSeek: cache hits 70, misses 270, output 1,100 nano-USD a token.
  const deepseekUsage = { prompt_tokens: 1000, completion_tokens: 200, total_tokens: 1200, prompt_cache_hit_tokens: 800, prompt_cache_miss_tokens: 200 };
  const deepseekRate = { slug: 'deepseek/deepseek-chat', inputPriceMicrosPer1k: 270, cachedInputPriceMicrosPer1k: 70, outputPriceMicrosPer1k: 1100 };
  // Claude through OpenRouter: input 3,000, cache writes 3,750, cache reads 300, output 15,000 nano-USD a token.
  const openrouterUsage = { prompt_tokens: 1000, completion_tokens: 200, total_tokens: 1200, prompt_tokens_details: { cached_tokens: 0, cache_write_tokens: 900 } };
  const openrouterRate = { slug: 'openrouter/anthropic/claude-sonnet-4', inputPriceMicrosPer1k: 3000, cacheWriteInputPriceMicrosPer1k: 3750, cachedInputPriceMicrosPer1k: 300, outputPriceMicrosPer1k: 15000 };

  const cases = [
    { provider: 'deepseek', rate: deepseekRate, usage: deepseekUsage, costNanos: 200 * 270 + 800 * 70 + 200 * 1100, recorded: { cachedTokens: 800, cacheWriteTokens: 0 } },
    { provider: 'openrouter', rate: openrouterRate, usage: openrouterUsage, costNanos: 100 * 3000 + 900 * 3750 + 200 * 15000, recorded: { cachedTokens: 0, cacheWriteTokens: 900 } },
  ];

  for (const { provider, rate, usage, costNanos, recorded } of cases) {
    it.each([false, true])(`records and shows ${provider}'s cache tokens at their own prices (stream: %s)`, async (streamed) => {
      const fake = createFakeGateway({
        providers: [fakeProvider(provider, ['openai-chat'])],
        models: [{ slug: rate.slug }],
        rates: [rate],
        fetch: async () => new Response(streamed ? stream(usage) : completion(usage), { headers: { 'content-type': streamed ? 'text/event-stream' : 'application/json' } }),
      });
      const config = await fake.services.projects.loadProjectConfig('acme');
      if (config) config.project.usageInjection = true;

      const response = await runGeneration(chatCompletionsEndpoint, request({ model: rate.slug, stream: streamed, messages: [{ role: 'user', content: 'Hi' }] }), fake.services, route);
      const body = await bodyText(response.body);
      await response.afterAnswer?.();

      expect(fake.records).toHaveLength(1);
      expect(fake.records[0]).toMatchObject({ status: 'completed', promptTokens: 1000, completionTokens: 200, ...recorded, costNanos });
      expect(body).toContain(`"cost":${costNanos / 1e9}`);
      expect(body).toContain(`"cached_tokens":${recorded.cachedTokens}`);
    });
  }
});
