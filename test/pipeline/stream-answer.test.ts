import { beforeAll, describe, expect, it } from 'vitest';
import type { RouteTarget } from '../../shared/core/plan-route.ts';
import type { TokenUsage } from '../../shared/core/token-usage.ts';
import { SseEventSplitter } from '../../shared/http/sse-event-splitter.ts';
import type { GatewayServices, MalformedUpstreamEvent } from '../../shared/pipeline/gateway-services.ts';
import type { AttemptOutcome, UsageSettlement } from '../../shared/pipeline/record-usage.ts';
import { streamAnswer } from '../../shared/pipeline/stream-answer.ts';
import { chooseBridge } from '../../shared/protocols/bridge.ts';
import { loadWireProtocols, REACHABLE_PROTOCOLS } from '../../shared/protocols/registry.ts';
import { openAiChatProtocol } from '../../shared/protocols/openai-chat/openai-chat-protocol.ts';
import { presentation } from '../canonical/support/translate.ts';
import { readFixture } from '../support/fixtures.ts';

// chooseBridge takes the protocols the pipeline loads first (registry.ts).
beforeAll(() => loadWireProtocols(REACHABLE_PROTOCOLS));

const recorded = new SseEventSplitter().push(readFixture('openai-chat/chat-stream-tool-calls-include-usage.sse'));
const withoutUsage = recorded.filter((event) => !event.includes('"usage":{'));
const withoutUsageOrDone = withoutUsage.filter((event) => event !== 'data: [DONE]\n\n');
const ESTIMATE: TokenUsage = { promptTokens: 40, completionTokens: 12, cachedTokens: 0, reasoningTokens: 0, estimated: true };
const dataOf = (event: string) => JSON.parse(event.replace(/^data: /, '')) as { usage: Record<string, unknown> };

/** A native chat stream answered through the pipeline's stream step; what it settles is kept. */
async function answer(upstreamBody: string, options: { showUsage: boolean; injectCost?: boolean }) {
  const settled: AttemptOutcome[] = [];
  const estimatedFrom: string[] = [];
  const reported: MalformedUpstreamEvent[] = [];
  const settlement = { settle: async (outcome: AttemptOutcome) => void settled.push(outcome), settled: false } as unknown as UsageSettlement;
  const target = { model: { slug: 'openai/gpt-4o-mini' }, provider: { provider: 'openai', protocols: ['openai-chat'] }, rate: { slug: 'x', inputPriceMicrosPer1k: 150, outputPriceMicrosPer1k: 600 } } as unknown as RouteTarget;
  const bridge = chooseBridge(openAiChatProtocol, { protocols: ['openai-chat'], features: { customTools: true } }, {}, () => {
    throw new Error('native');
  });
  const response = await streamAnswer({
    bridge,
    served: { target, response: new Response(upstreamBody), apiKey: undefined, failures: [], abort: () => undefined },
    decoder: await bridge.createStreamDecoder(),
    presentation: presentation({ showUsage: options.showUsage, injectCost: options.injectCost ?? false }),
    estimate: async ({ completionText }) => (estimatedFrom.push(completionText), ESTIMATE),
    settlement,
    attempt: { model: 'openai/gpt-4o-mini', provider: 'openai', rate: target.rate, streamed: true, fallbackAttempts: 0 },
    servedBy: {},
    services: { settings: { heartbeatIntervalMs: 60_000 }, reportMalformedUpstreamEvent: (report) => void reported.push(report) } as GatewayServices,
    requestId: 'gen-unit-1',
    timeLimits: { remainingMs: 60_000, idleMs: 60_000 },
  });
  const text = await new Response(response.body).text();
  return { events: new SseEventSplitter().push(text.endsWith('\n\n') ? text : `${text}\n\n`), settled, estimatedFrom, reported };
}

describe('streamAnswer of a native chat stream whose upstream sent no usage', () => {
  it('inserts the estimated usage before a [DONE] that lacks its blank line', async () => {
    const { events } = await answer(`${withoutUsageOrDone.join('')}data: [DONE]`, { showUsage: true });
    expect(events.slice(0, -2)).toEqual(withoutUsageOrDone);
    expect(dataOf(events.at(-2) ?? '').usage).toMatchObject({ prompt_tokens: 40, completion_tokens: 12 });
    expect(events.at(-1)).toBe('data: [DONE]\n\n');
  });

  it('settles the estimate, counted from the generated tool call, as the final usage', async () => {
    const { settled, estimatedFrom } = await answer(withoutUsage.join(''), { showUsage: false });
    expect(settled).toHaveLength(1);
    expect(settled[0]).toMatchObject({ status: 'completed', httpStatus: 200, usage: ESTIMATE, finishReason: 'tool_calls' });
    expect(estimatedFrom).toEqual(['multiply{"a":1231,"b":2331}']);
  });
});

describe('streamAnswer of a native chat stream with usage', () => {
  it('relays it unchanged when the client asked for usage, and settles the reported usage (and the accepted request) without estimating', async () => {
    const { events, settled, estimatedFrom } = await answer(recorded.join(''), { showUsage: true });
    expect(events).toEqual(recorded);
    expect(settled[0]?.usage).toEqual({ promptTokens: 54, completionTokens: 20, cachedTokens: 0, reasoningTokens: 0, estimated: false, units: { requests: 1 } });
    expect(estimatedFrom).toEqual([]);
  });

  it('hides the usage chunk and adds none when the client did not ask', async () => {
    expect((await answer(recorded.join(''), { showUsage: false })).events).toEqual(withoutUsage);
  });
});

describe('streamAnswer of a native chat stream with an event whose data is broken JSON', () => {
  const broken = 'data: {not json\n\n';
  const withBroken = [recorded[0] ?? '', broken, ...recorded.slice(1)];

  it("drops it from the client's stream (an SDK would throw on it) and reports where it came from, not what it held", async () => {
    const { events, reported } = await answer(withBroken.join(''), { showUsage: true });
    expect(events).toEqual(recorded);
    expect(reported).toEqual([{ requestId: 'gen-unit-1', provider: 'openai', model: 'openai/gpt-4o-mini', dataLength: '{not json'.length }]);
  });

  it('settles the stream as completed with the usage the upstream reported', async () => {
    const { settled } = await answer(withBroken.join(''), { showUsage: false });
    expect(settled).toHaveLength(1);
    expect(settled[0]).toMatchObject({ status: 'completed', usage: { promptTokens: 54, completionTokens: 20, estimated: false } });
  });
});
