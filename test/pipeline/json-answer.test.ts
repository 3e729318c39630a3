import { beforeAll, describe, expect, it } from 'vitest';
import { formatUsd, priceUsage } from '../../shared/core/price-usage.ts';
import type { TokenUsage } from '../../shared/core/token-usage.ts';
import type { RouteTarget } from '../../shared/core/plan-route.ts';
import { readJsonAnswer } from '../../shared/pipeline/json-answer.ts';
import { chooseBridge } from '../../shared/protocols/bridge.ts';
import { loadWireProtocols, REACHABLE_PROTOCOLS } from '../../shared/protocols/registry.ts';
import { openAiChatProtocol } from '../../shared/protocols/openai-chat/openai-chat-protocol.ts';
import { presentation } from '../canonical/support/translate.ts';
import { readFixture } from '../support/fixtures.ts';
import { OPENAI_FEATURES } from '../support/upstream-features.ts';

// chooseBridge takes the protocols the pipeline loads first (registry.ts).
beforeAll(() => loadWireProtocols(REACHABLE_PROTOCOLS));

const priceUsd = (usage: TokenUsage) =>
  formatUsd(priceUsage(usage, { slug: 'x', inputPriceMicrosPer1k: 150, outputPriceMicrosPer1k: 600, cachedInputPriceMicrosPer1k: 75 }));

const ESTIMATE: TokenUsage = { promptTokens: 11, completionTokens: 5, cachedTokens: 0, reasoningTokens: 0, estimated: true };

function options(injectCost: boolean) {
  const estimatedFrom: string[] = [];
  const estimate = ({ completionText }: { completionText: string }) => {
    estimatedFrom.push(completionText);
    return Promise.resolve(ESTIMATE);
  };
  return { estimatedFrom, meterOptions: { injectCost, estimate } };
}

/** A native chat answer read the way the pipeline reads it, through the bridge of a chat provider. */
async function meterChatCompletion(body: string, options: { injectCost: boolean; estimate: (observed: { completionText: string }) => Promise<TokenUsage> }) {
  const target = { provider: { provider: 'openai', protocols: ['openai-chat'] } } as unknown as RouteTarget;
  const bridge = chooseBridge(openAiChatProtocol, { protocols: ['openai-chat'], features: OPENAI_FEATURES }, {}, () => {
    throw new Error('a native answer is never translated');
  });
  const response = new Response(body, { headers: { 'content-type': 'application/json' } });
  const answer = await readJsonAnswer({ bridge, served: { target, response, apiKey: undefined, failures: [], abort: () => undefined }, presentation: presentation({ injectCost: options.injectCost, priceUsd }), estimate: options.estimate, remainingMs: 60_000 });
  return { body: answer.body, usage: answer.usage, ...answer.described };
}

const fixtures = [
  'chat-nonstream-cached-tokens.json',
  'chat-nonstream-reasoning-tokens.json',
  'chat-nonstream-text-usage-details.json',
  'chat-nonstream-tool-calls.json',
];

describe('readJsonAnswer of a native chat completion', () => {
  it.each(fixtures)('returns the body of %s byte-for-byte when injection is off', async (name) => {
    const body = readFixture(`openai-chat/${name}`);
    const { meterOptions, estimatedFrom } = options(false);
    const metered = await meterChatCompletion(body, meterOptions);
    expect(metered.body).toBe(body);
    expect(metered.usage.estimated).toBe(false);
    expect(estimatedFrom).toEqual([]);
  });

  it.each(fixtures)('adds usage.cost to %s and changes nothing else when injection is on', async (name) => {
    const body = readFixture(`openai-chat/${name}`);
    const metered = await meterChatCompletion(body, options(true).meterOptions);
    const original = JSON.parse(body) as { usage: Record<string, unknown> };
    const shown = JSON.parse(metered.body) as { usage: Record<string, unknown> };
    expect(shown).toEqual({ ...original, usage: { ...original.usage, cost: Number(priceUsd(metered.usage)) } });
    expect(Object.keys(shown)).toEqual(Object.keys(original));
  });

  it('prices a prompt-cache hit at the cached price and prints the cost as a plain decimal', async () => {
    const metered = await meterChatCompletion(readFixture('openai-chat/chat-nonstream-cached-tokens.json'), options(true).meterOptions);
    // (10122 - 9984) · 150 + 9984 · 75 + 1 · 600 = 770,100 nano-USD.
    expect(metered.body).toContain('"cost":0.0007701}');
    expect(metered.usage).toEqual({ promptTokens: 10_122, completionTokens: 1, cachedTokens: 9_984, reasoningTokens: 0, estimated: false });
  });

  it('prints a cost below 1e-6 without exponent notation', async () => {
    const body = JSON.stringify({ id: 'c', choices: [], usage: { prompt_tokens: 1, completion_tokens: 0, total_tokens: 1 } });
    const metered = await meterChatCompletion(body, options(true).meterOptions);
    expect(metered.body).toBe(
      '{"id":"c","choices":[],"usage":{"prompt_tokens":1,"completion_tokens":0,"total_tokens":1,"prompt_tokens_details":{"cached_tokens":0},"completion_tokens_details":{"reasoning_tokens":0},"cost":0.00000015}}',
    );
  });

  it('reports the finish reason and upstream id of a recorded tool-call completion', async () => {
    const metered = await meterChatCompletion(readFixture('openai-chat/chat-nonstream-tool-calls.json'), options(false).meterOptions);
    expect(metered).toMatchObject({ finishReason: 'tool_calls', upstreamId: 'chatcmpl-BWpGNGdPONTwxHkZVxbqctQSBDmTn' });
    expect(metered.usage).toMatchObject({ promptTokens: 92, completionTokens: 17 });
  });

  describe('when the upstream sent no usage', () => {
    const withoutUsage = (usage?: null) => {
      const completion = JSON.parse(readFixture('openai-chat/chat-nonstream-tool-calls.json')) as Record<string, unknown>;
      delete completion.usage;
      return JSON.stringify(usage === null ? { ...completion, usage: null } : completion);
    };

    it('uses the estimate, marked as such, counting the generated text and tool calls', async () => {
      const { meterOptions, estimatedFrom } = options(false);
      const body = withoutUsage();
      const metered = await meterChatCompletion(body, meterOptions);
      expect(metered.usage).toEqual(ESTIMATE);
      expect(metered.usage.estimated).toBe(true);
      expect(metered.body).toBe(body);
      expect(estimatedFrom).toHaveLength(1);
      expect(estimatedFrom[0]).toContain('lookup_population');
      expect(estimatedFrom[0]).toContain('{"country":"Crumpet"}');
    });

    it('counts message content as the generated text', async () => {
      const { meterOptions, estimatedFrom } = options(false);
      await meterChatCompletion(JSON.stringify({ choices: [{ message: { content: 'Hello there' } }] }), meterOptions);
      expect(estimatedFrom).toEqual(['Hello there']);
    });

    it('treats usage: null like missing usage', async () => {
      const metered = await meterChatCompletion(withoutUsage(null), options(false).meterOptions);
      expect(metered.usage).toEqual(ESTIMATE);
    });

    it('shows the estimated usage with its cost when injection is on', async () => {
      const metered = await meterChatCompletion(withoutUsage(), options(true).meterOptions);
      const shown = JSON.parse(metered.body) as { usage: unknown; choices: unknown };
      // 11 · 150 + 5 · 600 = 4,650 nano-USD.
      expect(shown.usage).toEqual({
        prompt_tokens: 11,
        completion_tokens: 5,
        total_tokens: 16,
        prompt_tokens_details: { cached_tokens: 0 },
        completion_tokens_details: { reasoning_tokens: 0 },
        cost: 0.00000465,
      });
      expect(metered.body).toContain('"cost":0.00000465}');
      expect(shown.choices).toEqual((JSON.parse(withoutUsage()) as { choices: unknown }).choices);
    });
  });

  it.each([
    ['plain text', 'upstream says hello'],
    ['truncated JSON', '{"id":"chatcmpl-1","choices":['],
    ['a JSON array', '[{"id":"x"}]'],
    ['a JSON string', '"text"'],
    ['JSON null', 'null'],
    ['an error object in place of the completion', '{"error":{"message":"quota exhausted","type":"server_error"}}'],
  ])('refuses %s as no answer: a 502 upstream_invalid_response, never passed on as a 200', async (_label, body) => {
    const { meterOptions } = options(true);
    await expect(meterChatCompletion(body, meterOptions)).rejects.toMatchObject({ status: 502, code: 'upstream_invalid_response' });
  });
});
