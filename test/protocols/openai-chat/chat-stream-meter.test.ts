import { describe, expect, it } from 'vitest';
import { formatUsd, priceUsage, type TokenUsage } from '../../../shared/core/price-usage.ts';
import { SseEventSplitter } from '../../../shared/http/sse-event-splitter.ts';
import { createChatStreamMeter, isDoneEvent } from '../../../shared/protocols/openai-chat/chat-stream-meter.ts';
import { readFixture } from '../../support/fixtures.ts';

/** 1 nano-USD per prompt token, 2 per completion token: small enough that a float would print as 9.4e-8. */
const priceUsd = (usage: TokenUsage) => formatUsd(priceUsage(usage, { slug: 'x', inputPriceMicrosPer1k: 1, outputPriceMicrosPer1k: 2 }));

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

const hasUsage = (event: string) => !isDoneEvent(event) && ((JSON.parse(event.slice(6)) as { usage?: unknown }).usage ?? null) !== null;
const dataOf = (event: string) => JSON.parse(event.replace(/^data: /, '')) as Record<string, unknown>;

const toolCalls = sseEvents('chat-stream-tool-calls-include-usage.sse');
const toolCallsUsageIndex = toolCalls.findIndex(hasUsage);
const toolCallsUsageEvent = toolCalls[toolCallsUsageIndex] ?? '';

function run(events: string[], options: { injectCost: boolean; clientAskedForUsage: boolean }) {
  const meter = createChatStreamMeter({ ...options, priceUsd });
  return { meter, out: events.map((event) => meter.push(event)) };
}

describe('createChatStreamMeter over a recorded tool-call stream', () => {
  it('finds exactly one usage chunk in the recording (the last before [DONE])', () => {
    expect(toolCalls.filter(hasUsage)).toHaveLength(1);
    expect(toolCallsUsageIndex).toBe(toolCalls.length - 2);
  });

  it.each([
    { injectCost: false, clientAskedForUsage: false },
    { injectCost: false, clientAskedForUsage: true },
    { injectCost: true, clientAskedForUsage: false },
    { injectCost: true, clientAskedForUsage: true },
  ])('passes every other event byte-identical (injection $injectCost, client asked $clientAskedForUsage)', (options) => {
    const { out } = run(toolCalls, options);
    out.forEach((forwarded, index) => {
      if (index !== toolCallsUsageIndex) expect(forwarded).toBe(toolCalls[index]);
    });
  });

  it('hides the usage chunk when the client did not ask and injection is off', () => {
    const { out, meter } = run(toolCalls, { injectCost: false, clientAskedForUsage: false });
    expect(out[toolCallsUsageIndex]).toBe('');
    expect(meter.needsUsageChunk()).toBe(false);
  });

  it('shows the usage chunk unchanged when the client asked and injection is off', () => {
    const { out, meter } = run(toolCalls, { injectCost: false, clientAskedForUsage: true });
    expect(out[toolCallsUsageIndex]).toBe(toolCallsUsageEvent);
    expect(meter.needsUsageChunk()).toBe(false);
  });

  it.each([false, true])('shows the usage chunk with its exact cost when injection is on (client asked: %s)', (clientAskedForUsage) => {
    const { out, meter } = run(toolCalls, { injectCost: true, clientAskedForUsage });
    const shown = out[toolCallsUsageIndex] ?? '';
    // 54 prompt tokens · 1 + 20 completion tokens · 2 = 94 nano-USD.
    expect(shown).toMatch(/^data: \{.*"cost":0\.000000094\}\}\n\n$/);
    const original = dataOf(toolCallsUsageEvent);
    expect(dataOf(shown)).toEqual({ ...original, usage: { ...(original.usage as object), cost: 0.000000094 } });
    expect(meter.needsUsageChunk()).toBe(false);
  });

  it("reports the upstream's usage, finish reason, id and the generated tool-call text", () => {
    const { meter } = run(toolCalls, { injectCost: false, clientAskedForUsage: false });
    expect(meter.result()).toEqual({
      usage: { promptTokens: 54, completionTokens: 20, cachedTokens: 0, reasoningTokens: 0, estimated: false },
      finishReason: 'tool_calls',
      upstreamId: 'chatcmpl-BWlJBDk2xe66hjff60joVYpXi1hh4',
      completionText: 'multiply{"a":1231,"b":2331}',
    });
  });
});

describe('createChatStreamMeter over a recorded text stream', () => {
  const text = sseEvents('chat-stream-text-include-usage.sse');

  it('collects the generated text and the usage', () => {
    const { meter } = run(text, { injectCost: false, clientAskedForUsage: true });
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

  it('is stripped of usage, its choices kept, when the client did not ask', () => {
    const meter = createChatStreamMeter({ injectCost: false, clientAskedForUsage: false, priceUsd });
    const forwarded = meter.push(event);
    const { usage: _usage, ...withoutUsage } = combined;
    expect(forwarded).toBe(`data: ${JSON.stringify(withoutUsage)}\n\n`);
    expect(meter.result()).toMatchObject({ usage: { promptTokens: 54, completionTokens: 20 }, finishReason: 'tool_calls' });
    expect(meter.needsUsageChunk()).toBe(false);
  });

  it('passes unchanged when the client asked', () => {
    const meter = createChatStreamMeter({ injectCost: false, clientAskedForUsage: true, priceUsd });
    expect(meter.push(event)).toBe(event);
  });

  it('keeps its choices and gains the cost when injection is on', () => {
    const meter = createChatStreamMeter({ injectCost: true, clientAskedForUsage: false, priceUsd });
    expect(dataOf(meter.push(event))).toEqual({ ...combined, usage: { ...(combined.usage as object), cost: 0.000000094 } });
  });
});

describe('a stream whose upstream sent no usage', () => {
  const withoutUsage = toolCalls.filter((event) => !hasUsage(event));
  const estimate: TokenUsage = { promptTokens: 7, completionTokens: 12, cachedTokens: 0, reasoningTokens: 0, estimated: true };

  it('needs no usage chunk when the client did not ask and injection is off', () => {
    expect(run(withoutUsage, { injectCost: false, clientAskedForUsage: false }).meter.needsUsageChunk()).toBe(false);
  });

  it('needs a usage chunk, rendered from the estimate, when the client asked', () => {
    const { meter, out } = run(withoutUsage, { injectCost: false, clientAskedForUsage: true });
    expect(out).toEqual(withoutUsage);
    expect(meter.needsUsageChunk()).toBe(true);
    const chunk = meter.renderMissingUsageChunk(estimate);
    expect(chunk).toMatch(/\n\n$/);
    expect(dataOf(chunk)).toEqual({
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
    expect(meter.needsUsageChunk()).toBe(false);
    expect(meter.result().usage).toBeUndefined();
  });

  it('renders the estimate with its exact cost when injection is on', () => {
    const { meter } = run(withoutUsage, { injectCost: true, clientAskedForUsage: false });
    expect(meter.needsUsageChunk()).toBe(true);
    // 7 · 1 + 12 · 2 = 31 nano-USD.
    const chunk = meter.renderMissingUsageChunk(estimate);
    expect(chunk).toContain('"cost":0.000000031}');
    expect((dataOf(chunk).usage as { cost: number }).cost).toBe(0.000000031);
  });
});

describe('a recorded Azure reasoning stream (chunks.txt)', () => {
  const azure = chunksTxtEvents('chat-stream-azure-reasoning-include-usage.chunks.txt');

  it('reads the reasoning tokens and skips the empty id of the prompt-filter chunk', () => {
    const { meter, out } = run(azure, { injectCost: false, clientAskedForUsage: true });
    expect(out).toEqual(azure);
    expect(meter.result()).toEqual({
      usage: { promptTokens: 15, completionTokens: 78, cachedTokens: 0, reasoningTokens: 64, estimated: false },
      finishReason: 'stop',
      upstreamId: 'chatcmpl-CYPS1lijGoK8gd9lYzY3r9Sx50nbt',
      completionText: 'Capital of Denmark.',
    });
  });

  it('hides only the usage chunk when the client did not ask', () => {
    const { out } = run(azure, { injectCost: false, clientAskedForUsage: false });
    expect(out.filter((event) => event === '')).toHaveLength(1);
    expect(out.filter((event) => event !== '')).toEqual(azure.filter((event) => !hasUsage(event)));
  });

  it("takes the missing usage chunk's id, model and created from the real chunks, not the placeholder first one", () => {
    const { meter } = run(azure.filter((event) => !hasUsage(event)), { injectCost: false, clientAskedForUsage: true });
    const estimate: TokenUsage = { promptTokens: 1, completionTokens: 1, cachedTokens: 0, reasoningTokens: 0, estimated: true };
    expect(dataOf(meter.renderMissingUsageChunk(estimate))).toMatchObject({
      id: 'chatcmpl-CYPS1lijGoK8gd9lYzY3r9Sx50nbt',
      model: 'gpt-5-nano-2025-08-07',
      created: 1762317021,
    });
  });
});

describe('events that are not JSON chunks', () => {
  it.each([': keep-alive\n\n', 'data: [DONE]\n\n', 'event: ping\ndata: hello\n\n', 'data: {not json\n\n', 'data: [1,2]\n\n'])(
    'passes %j unchanged',
    (event) => {
      const meter = createChatStreamMeter({ injectCost: true, clientAskedForUsage: false, priceUsd });
      expect(meter.push(event)).toBe(event);
      expect(meter.result().usage).toBeUndefined();
    },
  );

  it('recognises [DONE] with or without the space, and nothing else', () => {
    expect(isDoneEvent('data: [DONE]\n\n')).toBe(true);
    expect(isDoneEvent('data:[DONE]\r\n\r\n')).toBe(true);
    expect(isDoneEvent('data: {"done":true}\n\n')).toBe(false);
    expect(isDoneEvent(': [DONE]\n\n')).toBe(false);
  });
});
