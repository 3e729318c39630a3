import { describe, expect, it } from 'vitest';
import { completeChatUsage, readChatUsage, renderChatUsage, stringifyWithUsageCost } from '../../../shared/protocols/openai-chat/chat-usage.ts';
import { presentChatCompletion } from '../../../shared/protocols/openai-chat/chat-native-response.ts';
import type { Presentation } from '../../../shared/protocols/wire-protocol.ts';
import { readFixture } from '../../support/fixtures.ts';

function fixtureUsage(name: string): unknown {
  const completion = JSON.parse(readFixture(`openai-chat/${name}`)) as { usage: unknown };
  return completion.usage;
}

describe('readChatUsage', () => {
  it('reads the cached prompt tokens of a recorded prompt-cache hit', () => {
    expect(readChatUsage(fixtureUsage('chat-nonstream-cached-tokens.json'))).toEqual({
      promptTokens: 10_122,
      completionTokens: 1,
      cachedTokens: 9_984,
      reasoningTokens: 0,
      estimated: false,
    });
  });

  it('reads the reasoning tokens of a recorded reasoning-model completion', () => {
    expect(readChatUsage(fixtureUsage('chat-nonstream-reasoning-tokens.json'))).toEqual({
      promptTokens: 7,
      completionTokens: 87,
      cachedTokens: 0,
      reasoningTokens: 64,
      estimated: false,
    });
  });

  it('counts missing details as zero', () => {
    expect(readChatUsage({ prompt_tokens: 12, completion_tokens: 3, total_tokens: 15 })).toEqual({
      promptTokens: 12,
      completionTokens: 3,
      cachedTokens: 0,
      reasoningTokens: 0,
      estimated: false,
    });
  });

  it('counts null counts and null details as zero', () => {
    const usage = {
      prompt_tokens: 5,
      completion_tokens: null,
      total_tokens: null,
      prompt_tokens_details: null,
      completion_tokens_details: { reasoning_tokens: null },
    };
    expect(readChatUsage(usage)).toEqual({ promptTokens: 5, completionTokens: 0, cachedTokens: 0, reasoningTokens: 0, estimated: false });
  });

  it('keeps the fields it does not know about out of the way', () => {
    expect(readChatUsage({ prompt_tokens: 1, completion_tokens: 2, cost: 0.5, is_byok: false })?.completionTokens).toBe(2);
  });

  it.each([
    ['null', null],
    ['undefined', undefined],
    ['a number', 42],
    ['a string', '{"prompt_tokens":1}'],
    ['an array', [1, 2]],
    ['a negative count', { prompt_tokens: -1, completion_tokens: 2 }],
    ['a fractional count', { prompt_tokens: 1.5, completion_tokens: 2 }],
    ['a count as a string', { prompt_tokens: '10', completion_tokens: 2 }],
  ])('is undefined for %s', (_label, value) => {
    expect(readChatUsage(value)).toBeUndefined();
  });
});

describe('readChatUsage of the prompt-cache fields OpenAI-compatible providers add', () => {
  it("reads DeepSeek's prompt_cache_hit_tokens as cache reads when it sends no cached_tokens", () => {
    const deepseek = { prompt_tokens: 1000, completion_tokens: 200, total_tokens: 1200, prompt_cache_hit_tokens: 800, prompt_cache_miss_tokens: 200 };
    expect(readChatUsage(deepseek)).toEqual({ promptTokens: 1000, completionTokens: 200, cachedTokens: 800, reasoningTokens: 0, estimated: false });
  });

  it('keeps cached_tokens when a provider sends both', () => {
    const both = { prompt_tokens: 1000, completion_tokens: 2, prompt_cache_hit_tokens: 800, prompt_tokens_details: { cached_tokens: 640 } };
    expect(readChatUsage(both)?.cachedTokens).toBe(640);
  });

  it("reads OpenRouter's prompt_tokens_details.cache_write_tokens as cache writes", () => {
    const openrouter = {
      prompt_tokens: 1000,
      completion_tokens: 200,
      total_tokens: 1200,
      cost: 0.0066,
      prompt_tokens_details: { cached_tokens: 50, cache_write_tokens: 900, audio_tokens: 0 },
      completion_tokens_details: { reasoning_tokens: 0 },
    };
    expect(readChatUsage(openrouter)).toEqual({ promptTokens: 1000, completionTokens: 200, cachedTokens: 50, cacheWriteTokens: 900, reasoningTokens: 0, estimated: false });
  });
});

describe('readChatUsage with odd details', () => {
  it('keeps the main counts when a detail field is malformed', () => {
    expect(readChatUsage({ prompt_tokens: 10, completion_tokens: 2, prompt_tokens_details: { cached_tokens: '5' } })).toEqual({
      promptTokens: 10,
      completionTokens: 2,
      cachedTokens: 0,
      reasoningTokens: 0,
      estimated: false,
    });
  });
});

describe('renderChatUsage', () => {
  it("renders an estimate in OpenAI's shape with the total", () => {
    expect(renderChatUsage({ promptTokens: 7, completionTokens: 12, cachedTokens: 0, reasoningTokens: 0, estimated: true })).toEqual({
      prompt_tokens: 7,
      completion_tokens: 12,
      total_tokens: 19,
      prompt_tokens_details: { cached_tokens: 0 },
      completion_tokens_details: { reasoning_tokens: 0 },
    });
  });
});

describe('stringifyWithUsageCost', () => {
  const payload = { id: 'chatcmpl-1', object: 'chat.completion', usage: { prompt_tokens: 1, completion_tokens: 0, total_tokens: 1 } };

  it('prints the cost as a plain decimal literal, never in exponent notation', () => {
    const text = stringifyWithUsageCost(payload, payload.usage, '0.00000015');
    expect(text).toContain('"cost":0.00000015');
    expect(text).not.toMatch(/e-/i);
    expect(JSON.stringify(0.00000015)).toBe('1.5e-7');
  });

  it('yields JSON whose usage.cost is that number, with everything else as given', () => {
    const text = stringifyWithUsageCost(payload, payload.usage, '0.00000015');
    expect(JSON.parse(text)).toEqual({ ...payload, usage: { ...payload.usage, cost: 0.00000015 } });
  });

  it("keeps the payload's key order, usage where it was", () => {
    const text = stringifyWithUsageCost({ usage: null, id: 'x' }, { prompt_tokens: 1 }, '2.5');
    expect(text).toBe('{"usage":{"prompt_tokens":1,"cost":2.5},"id":"x"}');
  });

  it("replaces a cost the upstream already put in usage with the gateway's own", () => {
    const text = stringifyWithUsageCost({ id: 'x' }, { prompt_tokens: 1, cost: 0.9 }, '0.000001');
    expect(text).toBe('{"id":"x","usage":{"prompt_tokens":1,"cost":0.000001}}');
  });

  it('leaves generated text alone even when it spells the internal placeholder', () => {
    const completion = { choices: [{ message: { content: '__gateway_exact_cost__' } }], tag: '__gateway_exact_cost__' };
    const parsed = JSON.parse(stringifyWithUsageCost(completion, { prompt_tokens: 1 }, '0.00000015')) as unknown;
    expect(parsed).toEqual({ ...completion, usage: { prompt_tokens: 1, cost: 0.00000015 } });
  });
});

describe('the usage object shown with its cost (usage injection, interface spec 2.3)', () => {
  const metered = { promptTokens: 8, completionTokens: 8, cachedTokens: 3, reasoningTokens: 2, estimated: false };

  it('adds the cached and reasoning detail counts an upstream left out, from the metered usage', () => {
    expect(completeChatUsage({ prompt_tokens: 8, completion_tokens: 8, total_tokens: 16 }, metered)).toEqual({
      prompt_tokens: 8,
      completion_tokens: 8,
      total_tokens: 16,
      prompt_tokens_details: { cached_tokens: 3 },
      completion_tokens_details: { reasoning_tokens: 2 },
    });
  });

  it('keeps the detail counts an upstream sent, and its other details beside them', () => {
    const reported = { prompt_tokens: 8, completion_tokens: 8, prompt_tokens_details: { cached_tokens: 0, audio_tokens: 0 }, completion_tokens_details: { reasoning_tokens: 5 } };
    expect(completeChatUsage(reported, metered)).toBe(reported);
    expect(completeChatUsage({ prompt_tokens: 8, completion_tokens: 8, prompt_tokens_details: { audio_tokens: 1 } }, metered)).toMatchObject({
      prompt_tokens_details: { audio_tokens: 1, cached_tokens: 3 },
      completion_tokens_details: { reasoning_tokens: 2 },
    });
  });

  it('is what a native completion shows when usage injection is on', () => {
    const presentation = { injectCost: true, showUsage: false, priceUsd: () => '0.000006', clientBody: {} } as unknown as Presentation;
    const payload = { id: 'chatcmpl-1', object: 'chat.completion', choices: [], usage: { prompt_tokens: 8, completion_tokens: 8, total_tokens: 16 } };
    const shown = JSON.parse(presentChatCompletion(JSON.stringify(payload), payload, metered, presentation)) as { usage: unknown };
    expect(shown.usage).toEqual({
      prompt_tokens: 8,
      completion_tokens: 8,
      total_tokens: 16,
      prompt_tokens_details: { cached_tokens: 3 },
      completion_tokens_details: { reasoning_tokens: 2 },
      cost: 0.000006,
    });
  });
});
