import { describe, expect, it } from 'vitest';
import { createCanonicalMeter } from '../../../shared/canonical/canonical-meter.ts';
import { formatUsd, priceUsage } from '../../../shared/core/price-usage.ts';
import type { TokenUsage } from '../../../shared/core/token-usage.ts';
import { SseEventSplitter } from '../../../shared/http/sse-event-splitter.ts';
import { createChatPassThrough } from '../../../shared/protocols/openai-chat/chat-pass-through.ts';
import { createChatStreamReader } from '../../../shared/protocols/openai-chat/chat-stream-reader.ts';
import { decodeSseEvent } from '../../../shared/transport/stream-decoder.ts';
import { presentation } from '../../canonical/support/translate.ts';
import { readFixture } from '../../support/fixtures.ts';

/** 1 nano-USD per prompt token, 2 per completion token: small enough that a float would print as 9.4e-8. */
const priceUsd = (usage: TokenUsage) => formatUsd(priceUsage(usage, { slug: 'x', inputPriceMicrosPer1k: 1, outputPriceMicrosPer1k: 2 }));
const estimate: TokenUsage = { promptTokens: 7, completionTokens: 12, cachedTokens: 0, reasoningTokens: 0, estimated: true };

function sseEvents(name: string): string[] {
  const splitter = new SseEventSplitter();
  const events = splitter.push(readFixture(`openai-chat/${name}`));
  expect(splitter.flush()).toBe('');
  return events;
}

function chunksTxtEvents(name: string): string[] {
  const lines = readFixture(`openai-chat/${name}`).split('\n').filter((line) => line !== '');
  return [...lines.map((line) => `data: ${line}\n\n`), 'data: [DONE]\n\n'];
}

const isDone = (event: string) => event.trim() === 'data: [DONE]';
const hasUsage = (event: string) => !isDone(event) && ((JSON.parse(event.slice(6)) as { usage?: unknown }).usage ?? null) !== null;
const dataOf = (event: string) => JSON.parse(event.replace(/^data: /, '')) as Record<string, unknown>;

const toolCalls = sseEvents('chat-stream-tool-calls-include-usage.sse');
const toolCallsUsageIndex = toolCalls.findIndex(hasUsage);
const toolCallsUsageEvent = toolCalls[toolCallsUsageIndex] ?? '';

/** A native chat stream as the pipeline handles it: each event read once, metered, and passed through. */
async function run(events: string[], options: { injectCost: boolean; showUsage: boolean }) {
  const reader = createChatStreamReader();
  const meter = createCanonicalMeter();
  const passThrough = createChatPassThrough(presentation({ ...options, priceUsd, finalUsage: async () => meter.result().usage ?? estimate }));
  const out: string[] = [];
  for (const raw of events) {
    const event = decodeSseEvent(raw);
    const canonical = reader.push(event.payload ?? event.data);
    meter.observe(canonical);
    out.push(await passThrough.push(event, canonical));
  }
  return { meter, out, ending: await passThrough.end() };
}

describe('createChatPassThrough over a recorded tool-call stream', () => {
  it('finds exactly one usage chunk in the recording (the last before [DONE])', () => {
    expect(toolCalls.filter(hasUsage)).toHaveLength(1);
    expect(toolCallsUsageIndex).toBe(toolCalls.length - 2);
  });

  it.each([
    { injectCost: false, showUsage: false },
    { injectCost: false, showUsage: true },
    { injectCost: true, showUsage: false },
    { injectCost: true, showUsage: true },
  ])('passes every other event byte-identical (injection $injectCost, client asked $showUsage)', async (options) => {
    const { out, ending } = await run(toolCalls, options);
    out.forEach((forwarded, index) => {
      if (index !== toolCallsUsageIndex) expect(forwarded).toBe(toolCalls[index]);
    });
    expect(ending).toBe('');
  });

  it('hides the usage chunk when the client did not ask and injection is off', async () => {
    const { out } = await run(toolCalls, { injectCost: false, showUsage: false });
    expect(out[toolCallsUsageIndex]).toBe('');
  });

  it('shows the usage chunk unchanged when the client asked and injection is off', async () => {
    const { out } = await run(toolCalls, { injectCost: false, showUsage: true });
    expect(out[toolCallsUsageIndex]).toBe(toolCallsUsageEvent);
  });

  it.each([false, true])('shows the usage chunk with its exact cost when injection is on (client asked: %s)', async (showUsage) => {
    const { out } = await run(toolCalls, { injectCost: true, showUsage });
    const shown = out[toolCallsUsageIndex] ?? '';
    // 54 prompt tokens · 1 + 20 completion tokens · 2 = 94 nano-USD.
    expect(shown).toMatch(/^data: \{.*"cost":0\.000000094\}\}\n\n$/);
    const original = dataOf(toolCallsUsageEvent);
    expect(dataOf(shown)).toEqual({ ...original, usage: { ...(original.usage as object), cost: 0.000000094 } });
  });

  it("meters the upstream's usage, finish reason, id and the generated tool-call text", async () => {
    const { meter } = await run(toolCalls, { injectCost: false, showUsage: false });
    expect(meter.result()).toEqual({
      usage: { promptTokens: 54, completionTokens: 20, cachedTokens: 0, reasoningTokens: 0, estimated: false },
      finishReason: 'tool_calls',
      finish: 'tool-calls',
      generated: true,
      upstreamId: 'chatcmpl-BWlJBDk2xe66hjff60joVYpXi1hh4',
      completionText: 'multiply{"a":1231,"b":2331}',
    });
  });
});

describe('createChatPassThrough over a recorded text stream', () => {
  it('meters the generated text and the usage', async () => {
    const { meter } = await run(sseEvents('chat-stream-text-include-usage.sse'), { injectCost: false, showUsage: true });
    expect(meter.result()).toMatchObject({
      usage: { promptTokens: 87, completionTokens: 26, estimated: false },
      finishReason: 'stop',
      upstreamId: 'chatcmpl-BWlJCN7VZTtSHROczp0AbrjFGhRMA',
      completionText: 'The result of \\( 1231 \\times 2331 \\) is \\( 2,869,461 \\).',
    });
  });
});

describe('a chunk that carries both choices and usage', () => {
  const last = dataOf(toolCalls[toolCalls.length - 3] ?? '');
  const combined = { ...last, usage: dataOf(toolCallsUsageEvent).usage };
  const event = `data: ${JSON.stringify(combined)}\n\n`;

  it('is stripped of usage, its choices kept, when the client did not ask', async () => {
    const { out, meter } = await run([event], { injectCost: false, showUsage: false });
    const { usage: _usage, ...withoutUsage } = combined;
    expect(out[0]).toBe(`data: ${JSON.stringify(withoutUsage)}\n\n`);
    expect(meter.result()).toMatchObject({ usage: { promptTokens: 54, completionTokens: 20 }, finishReason: 'tool_calls' });
  });

  it('passes unchanged when the client asked', async () => {
    expect((await run([event], { injectCost: false, showUsage: true })).out[0]).toBe(event);
  });

  it('keeps its choices and gains the cost when injection is on', async () => {
    const { out } = await run([event], { injectCost: true, showUsage: false });
    expect(dataOf(out[0] ?? '')).toEqual({ ...combined, usage: { ...(combined.usage as object), cost: 0.000000094 } });
  });
});

describe('a stream whose upstream sent no usage', () => {
  const withoutUsage = toolCalls.filter((event) => !hasUsage(event));

  it('adds no usage chunk when the client did not ask and injection is off', async () => {
    const { out, ending } = await run(withoutUsage, { injectCost: false, showUsage: false });
    expect(out).toEqual(withoutUsage);
    expect(ending).toBe('');
  });

  it('adds a usage chunk rendered from the estimate before [DONE] when the client asked', async () => {
    const { out, ending, meter } = await run(withoutUsage, { injectCost: false, showUsage: true });
    const done = out.at(-1) ?? '';
    const [usageChunk, doneEvent] = done.split(/(?<=\n\n)/);
    expect(doneEvent).toBe('data: [DONE]\n\n');
    expect(dataOf(usageChunk ?? '')).toEqual({
      id: 'chatcmpl-BWlJBDk2xe66hjff60joVYpXi1hh4',
      object: 'chat.completion.chunk',
      created: 1747148049,
      model: 'gpt-4o-mini-2024-07-18',
      choices: [],
      usage: {
        prompt_tokens: 7,
        completion_tokens: 12,
        total_tokens: 19,
        prompt_tokens_details: { cached_tokens: 0 },
        completion_tokens_details: { reasoning_tokens: 0 },
      },
    });
    expect(ending).toBe('');
    expect(meter.result().usage).toBeUndefined();
  });

  it('adds the estimate with its exact cost when injection is on, even without [DONE]', async () => {
    const { ending } = await run(withoutUsage.filter((event) => !isDone(event)), { injectCost: true, showUsage: false });
    // 7 · 1 + 12 · 2 = 31 nano-USD.
    expect(ending).toContain('"cost":0.000000031}');
    expect((dataOf(ending).usage as { cost: number }).cost).toBe(0.000000031);
  });
});

describe('a recorded Azure reasoning stream (chunks.txt)', () => {
  const azure = chunksTxtEvents('chat-stream-azure-reasoning-include-usage.chunks.txt');

  it('meters the reasoning tokens and skips the empty id of the prompt-filter chunk', async () => {
    const { meter, out } = await run(azure, { injectCost: false, showUsage: true });
    expect(out).toEqual(azure);
    expect(meter.result()).toEqual({
      usage: { promptTokens: 15, completionTokens: 78, cachedTokens: 0, reasoningTokens: 64, estimated: false },
      finishReason: 'stop',
      finish: 'stop',
      generated: true,
      upstreamId: 'chatcmpl-CYPS1lijGoK8gd9lYzY3r9Sx50nbt',
      completionText: 'Capital of Denmark.',
    });
  });

  it('hides only the usage chunk when the client did not ask', async () => {
    const { out } = await run(azure, { injectCost: false, showUsage: false });
    expect(out.filter((event) => event === '')).toHaveLength(1);
    expect(out.filter((event) => event !== '')).toEqual(azure.filter((event) => !hasUsage(event)));
  });

  it("takes the missing usage chunk's id, model and created from the real chunks, not the placeholder first one", async () => {
    const { out } = await run(azure.filter((event) => !hasUsage(event)), { injectCost: false, showUsage: true });
    const [usageChunk] = (out.at(-1) ?? '').split(/(?<=\n\n)/);
    expect(dataOf(usageChunk ?? '')).toMatchObject({ id: 'chatcmpl-CYPS1lijGoK8gd9lYzY3r9Sx50nbt', model: 'gpt-5-nano-2025-08-07', created: 1762317021 });
  });
});

describe('events that are not JSON chunks', () => {
  it.each([': keep-alive\n\n', 'event: ping\ndata: hello\n\n', 'data: {not json\n\n', 'data: [1,2]\n\n'])('passes %j unchanged', async (event) => {
    const { out, meter } = await run([event], { injectCost: false, showUsage: false });
    expect(out).toEqual([event]);
    expect(meter.result().usage).toBeUndefined();
  });
});
