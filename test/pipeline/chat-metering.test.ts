import { describe, expect, it } from 'vitest';
import type { TokenUsage } from '../../shared/core/price-usage.ts';
import type { RateCardEntry } from '../../shared/core/project-config.ts';
import { chatUsageEstimator, createChatStreamHandler, usdPricer } from '../../shared/endpoints/chat-metering.ts';
import { SseEventSplitter } from '../../shared/http/sse-event-splitter.ts';
import { openAiStreamErrorFrame } from '../../shared/protocols/openai-chat/openai-errors.ts';
import { relaySseStream } from '../../shared/transport/sse-relay.ts';
import { readFixture } from '../support/fixtures.ts';

const rate: RateCardEntry = { slug: 'openai/gpt-4o-mini', inputPriceMicrosPer1k: 150, outputPriceMicrosPer1k: 600 };

const recorded = new SseEventSplitter().push(readFixture('openai-chat/chat-stream-tool-calls-include-usage.sse'));
const withoutUsage = recorded.filter((event) => !event.includes('"usage":{'));
const withoutUsageOrDone = withoutUsage.filter((event) => event !== 'data: [DONE]\n\n');

describe('usdPricer', () => {
  it('prices a usage as an exact USD decimal', () => {
    expect(usdPricer(rate)({ promptTokens: 1, completionTokens: 0, cachedTokens: 0, reasoningTokens: 0, estimated: false })).toBe('0.00000015');
  });
});

describe('chatUsageEstimator', () => {
  it('counts prompt and completion with the o200k_base tokenizer and marks the usage estimated', async () => {
    const estimate = chatUsageEstimator([{ role: 'user', content: 'Hello world, this is a test' }]);
    expect(await estimate('Hello world, this is a test')).toEqual({
      promptTokens: 7,
      completionTokens: 7,
      cachedTokens: 0,
      reasoningTokens: 0,
      estimated: true,
    });
  });

  it('counts no completion tokens for no completion text', async () => {
    expect((await chatUsageEstimator([{ role: 'user', content: 'Hi' }])('')).completionTokens).toBe(0);
  });

  it('counts text parts and tool-call arguments of the prompt', async () => {
    const estimate = chatUsageEstimator([
      { role: 'user', content: [{ type: 'text', text: 'Hello world, this is a test' }, { type: 'image_url', image_url: { url: 'x' } }] },
      { role: 'assistant', content: null, tool_calls: [{ id: 'c', type: 'function', function: { name: 'f', arguments: '{"a":1}' } }] },
    ]);
    // 'Hello world, this is a test' + '\n' + the tool calls as JSON: 33 tokens; the image part counts nothing.
    expect((await estimate('')).promptTokens).toBe(33);
  });

  it('reads and counts the prompt only once, however often it is asked', async () => {
    let reads = 0;
    const message = {
      role: 'user',
      get content() {
        reads += 1;
        return 'Hello world, this is a test';
      },
    };
    const estimate = chatUsageEstimator([message]);
    const [first, second] = await Promise.all([estimate('a'), estimate('Hello world, this is a test')]);
    const third = await estimate('');
    expect(reads).toBe(1);
    expect([first?.promptTokens, second?.promptTokens, third.promptTokens]).toEqual([7, 7, 7]);
    expect(second?.completionTokens).toBe(7);
  });
});

function handlerFor(options: { clientAskedForUsage: boolean; injectCost: boolean }) {
  const estimatedFrom: string[] = [];
  const estimateUsage: TokenUsage = { promptTokens: 40, completionTokens: 12, cachedTokens: 0, reasoningTokens: 0, estimated: true };
  const estimate = (text: string) => {
    estimatedFrom.push(text);
    return Promise.resolve(estimateUsage);
  };
  return { ...createChatStreamHandler({ ...options, rate, estimate }), estimatedFrom };
}

async function feed(handler: ReturnType<typeof handlerFor>['handler'], events: string[]): Promise<string[]> {
  const out: string[] = [];
  for (const event of events) out.push(await handler.onEvent(event));
  out.push(await handler.onEnd());
  return out;
}

const dataOf = (event: string) => JSON.parse(event.replace(/^data: /, '')) as { usage: Record<string, unknown>; choices: unknown[] };

describe('createChatStreamHandler when the upstream sent no usage', () => {
  it('inserts an estimated usage chunk right before [DONE] when the client asked', async () => {
    const stream = handlerFor({ clientAskedForUsage: true, injectCost: false });
    const out = await feed(stream.handler, withoutUsage);
    const doneIndex = withoutUsage.length - 1;
    expect(out.slice(0, doneIndex)).toEqual(withoutUsage.slice(0, doneIndex));
    const [usageChunk, done] = (out[doneIndex] ?? '').split(/(?<=\n\n)/);
    expect(done).toBe('data: [DONE]\n\n');
    expect(dataOf(usageChunk ?? '')).toMatchObject({ choices: [], usage: { prompt_tokens: 40, completion_tokens: 12, total_tokens: 52 } });
    expect(dataOf(usageChunk ?? '').usage).not.toHaveProperty('cost');
    expect(out.at(-1)).toBe('');
    expect(stream.estimatedFrom).toEqual(['multiply{"a":1231,"b":2331}']);
  });

  it('inserts it with its exact cost when injection is on though the client did not ask', async () => {
    const stream = handlerFor({ clientAskedForUsage: false, injectCost: true });
    const out = await feed(stream.handler, withoutUsage);
    // 40 · 150 + 12 · 600 = 13,200 nano-USD.
    expect(out[withoutUsage.length - 1]).toMatch(/^data: \{.*"cost":0\.0000132\}\}\n\ndata: \[DONE\]\n\n$/);
  });

  it('appends it at the end when the stream has no [DONE]', async () => {
    const stream = handlerFor({ clientAskedForUsage: true, injectCost: false });
    const out = await feed(stream.handler, withoutUsageOrDone);
    expect(out.slice(0, -1)).toEqual(withoutUsageOrDone);
    expect(dataOf(out.at(-1) ?? '').usage).toMatchObject({ prompt_tokens: 40, completion_tokens: 12 });
    expect(out.at(-1)).toMatch(/\n\n$/);
  });

  it('inserts it before a [DONE] that lacks its blank line, relayed', async () => {
    const stream = handlerFor({ clientAskedForUsage: true, injectCost: false });
    const upstream = new Response(`${withoutUsageOrDone.join('')}data: [DONE]`).body;
    if (!upstream) throw new Error('no body');
    const body = relaySseStream(upstream, { provider: 'openai', handler: stream.handler, errorFrame: openAiStreamErrorFrame, onSettled: async () => {} });
    const events = new SseEventSplitter().push(`${await new Response(body).text()}\n\n`);
    expect(events.slice(0, -2)).toEqual(withoutUsageOrDone);
    expect(dataOf(events.at(-2) ?? '').usage).toMatchObject({ prompt_tokens: 40, completion_tokens: 12 });
    expect(events.at(-1)).toBe('data: [DONE]\n\n');
  });

  it('adds nothing when the client did not ask and injection is off', async () => {
    const stream = handlerFor({ clientAskedForUsage: false, injectCost: false });
    expect((await feed(stream.handler, withoutUsage)).join('')).toBe(withoutUsage.join(''));
  });

  it('records the estimate as the final usage', async () => {
    const stream = handlerFor({ clientAskedForUsage: false, injectCost: false });
    await feed(stream.handler, withoutUsage);
    expect(await stream.finalUsage()).toMatchObject({ promptTokens: 40, completionTokens: 12, estimated: true });
  });
});

describe('createChatStreamHandler when the upstream sent usage', () => {
  it('adds no usage chunk of its own and records the reported usage', async () => {
    const stream = handlerFor({ clientAskedForUsage: true, injectCost: false });
    const out = await feed(stream.handler, recorded);
    expect(out.join('')).toBe(recorded.join(''));
    expect(await stream.finalUsage()).toEqual({ promptTokens: 54, completionTokens: 20, cachedTokens: 0, reasoningTokens: 0, estimated: false });
    expect(stream.estimatedFrom).toEqual([]);
  });

  it('hides the usage chunk and adds none when the client did not ask', async () => {
    const stream = handlerFor({ clientAskedForUsage: false, injectCost: false });
    expect((await feed(stream.handler, recorded)).join('')).toBe(withoutUsage.join(''));
  });
});
