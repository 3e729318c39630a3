import { describe, expect, it } from 'vitest';
import { createUsageEstimator, estimateUsageBound, finalUsageOf } from '../../shared/pipeline/estimate-usage.ts';
import { chatPromptText } from '../../shared/tokenizer/estimate-tokens.ts';

const chatEstimator = (messages: unknown[]) => createUsageEstimator(() => chatPromptText(messages));

describe('createUsageEstimator', () => {
  it('counts prompt and completion with the o200k_base tokenizer and marks the usage estimated', async () => {
    const estimate = chatEstimator([{ role: 'user', content: 'Hello world, this is a test' }]);
    expect(await estimate({ completionText: 'Hello world, this is a test' })).toEqual({
      promptTokens: 7,
      completionTokens: 7,
      cachedTokens: 0,
      reasoningTokens: 0,
      estimated: true,
    });
  });

  it('counts no completion tokens for no completion text', async () => {
    expect((await chatEstimator([{ role: 'user', content: 'Hi' }])({ completionText: '' })).completionTokens).toBe(0);
  });

  it('counts text parts and tool-call arguments of the prompt', async () => {
    const estimate = chatEstimator([
      { role: 'user', content: [{ type: 'text', text: 'Hello world, this is a test' }, { type: 'image_url', image_url: { url: 'x' } }] },
      { role: 'assistant', content: null, tool_calls: [{ id: 'c', type: 'function', function: { name: 'f', arguments: '{"a":1}' } }] },
    ]);
    // 'Hello world, this is a test' + '\n' + the tool calls as JSON: 33 tokens; the image part counts nothing.
    expect((await estimate({ completionText: '' })).promptTokens).toBe(33);
  });

  it('reads and counts the prompt only once, however often it is asked', async () => {
    let reads = 0;
    const estimate = createUsageEstimator(() => {
      reads += 1;
      return 'Hello world, this is a test';
    });
    const [first, second] = await Promise.all([estimate({ completionText: 'a' }), estimate({ completionText: 'Hello world, this is a test' })]);
    const third = await estimate({ completionText: '' });
    expect(reads).toBe(1);
    expect([first?.promptTokens, second?.promptTokens, third.promptTokens]).toEqual([7, 7, 7]);
    expect(second?.completionTokens).toBe(7);
  });

  it("keeps an upstream's provisional prompt and cache counts, and the larger of its output placeholder and the count", async () => {
    const estimate = chatEstimator([{ role: 'user', content: 'Hello world, this is a test' }]);
    const provisionalUsage = { promptTokens: 1_000, completionTokens: 1, cachedTokens: 800, cacheWriteTokens: 150, reasoningTokens: 0, estimated: false };
    expect(await estimate({ provisionalUsage, completionText: 'Hello world, this is a test' })).toEqual({
      promptTokens: 1_000,
      completionTokens: 7,
      cachedTokens: 800,
      cacheWriteTokens: 150,
      reasoningTokens: 0,
      estimated: true,
    });
  });
});

describe('finalUsageOf', () => {
  it("takes the upstream's usage when it reported one, and estimates only otherwise", async () => {
    const reported = { promptTokens: 54, completionTokens: 20, cachedTokens: 0, reasoningTokens: 0, estimated: false };
    const estimate = chatEstimator([{ role: 'user', content: 'Hi' }]);
    expect(await finalUsageOf({ usage: reported, completionText: 'x' }, estimate)).toBe(reported);
    expect((await finalUsageOf({ completionText: 'Hello' }, estimate)).estimated).toBe(true);
  });
});

describe('estimateUsageBound', () => {
  it('bounds the prompt at four characters a token and takes the output cap, or 4096 when none is set', () => {
    expect(estimateUsageBound('x'.repeat(41), 100)).toEqual({ promptTokens: 11, maxOutputTokens: 100, outputCapGiven: true });
    expect(estimateUsageBound('', undefined)).toEqual({ promptTokens: 0, maxOutputTokens: 4096, outputCapGiven: false });
  });
});
