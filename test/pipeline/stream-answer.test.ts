import { beforeAll, describe, expect, it } from 'vitest';
import type { RouteTarget } from '../../shared/core/plan-route.ts';
import type { TokenUsage } from '../../shared/core/token-usage.ts';
import { SseEventSplitter } from '../../shared/http/sse-event-splitter.ts';
import type { GatewayServices, MalformedUpstreamEvent } from '../../shared/pipeline/gateway-services.ts';
import type { AttemptOutcome, UsageSettlement } from '../../shared/pipeline/record-usage.ts';
import { streamAnswer } from '../../shared/pipeline/stream-answer.ts';
import { anthropicMessagesProtocol } from '../../shared/protocols/anthropic-messages/anthropic-messages-protocol.ts';
import { chooseBridge } from '../../shared/protocols/bridge.ts';
import { loadWireProtocols, REACHABLE_PROTOCOLS } from '../../shared/protocols/registry.ts';
import { openAiChatProtocol } from '../../shared/protocols/openai-chat/openai-chat-protocol.ts';
import { openAiResponsesProtocol } from '../../shared/protocols/openai-responses/openai-responses-protocol.ts';
import type { WireProtocol } from '../../shared/protocols/wire-protocol.ts';
import { presentation } from '../canonical/support/translate.ts';
import { readFixture } from '../support/fixtures.ts';
import { asWebStream } from '../../shared/http/gateway-http.ts';
import { OPENAI_FEATURES } from '../support/upstream-features.ts';

// chooseBridge takes the protocols the pipeline loads first (registry.ts).
beforeAll(() => loadWireProtocols(REACHABLE_PROTOCOLS));

const recorded = new SseEventSplitter().push(readFixture('openai-chat/chat-stream-tool-calls-include-usage.sse'));
const withoutUsage = recorded.filter((event) => !event.includes('"usage":{'));
const withoutUsageOrDone = withoutUsage.filter((event) => event !== 'data: [DONE]\n\n');
const ESTIMATE: TokenUsage = { promptTokens: 40, completionTokens: 12, cachedTokens: 0, reasoningTokens: 0, estimated: true };
const dataOf = (event: string) => JSON.parse(event.replace(/^data: /, '')) as { usage: Record<string, unknown> };

/**
 * A chat stream answered through the pipeline's stream step, to a chat client (native) or to a client of
 * another protocol (translated); what it settles is kept.
 */
async function answer(upstreamBody: string, options: { showUsage: boolean; injectCost?: boolean; client?: WireProtocol; clientBody?: Record<string, unknown> }) {
  const client = options.client ?? openAiChatProtocol;
  const settled: AttemptOutcome[] = [];
  const estimatedFrom: string[] = [];
  const reported: MalformedUpstreamEvent[] = [];
  const settlement = { settle: async (outcome: AttemptOutcome) => void settled.push(outcome), settled: false } as unknown as UsageSettlement;
  const target = { model: { slug: 'openai/gpt-4o-mini' }, provider: { provider: 'openai', protocols: ['openai-chat'] }, rate: { slug: 'x', inputPriceMicrosPer1k: 150, outputPriceMicrosPer1k: 600 } } as unknown as RouteTarget;
  const clientBody = options.clientBody ?? {};
  const bridge = chooseBridge(client, { protocols: ['openai-chat'], features: OPENAI_FEATURES }, clientBody, () => client.readRequest(clientBody));
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
  const text = typeof response.body === 'string' ? response.body : await new Response(asWebStream(response.body)).text();
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

describe('streamAnswer of a stream whose provider reports an error inside it', () => {
  it("settles it as failed with the gateway's code for that failure (upstream_rate_limited), as a 429 before the stream would be", async () => {
    const rateLimited = 'data: {"error":{"message":"Rate limit reached for requests","type":"requests","code":"rate_limit_exceeded"}}\n\n';
    const { settled } = await answer(recorded[0] + rateLimited, { showUsage: false });
    expect(settled).toHaveLength(1);
    expect(settled[0]).toMatchObject({ status: 'failed', httpStatus: 200, errorCode: 'upstream_rate_limited' });
  });

  it('bills nothing when the provider failed before it generated or reported anything, as the same failure before the stream', async () => {
    const noQuota = 'data: {"error":{"message":"You exceeded your current quota","type":"insufficient_quota","code":"insufficient_quota"}}\n\n';
    const opening = 'data: {"id":"chatcmpl-1","object":"chat.completion.chunk","created":1,"model":"m","choices":[{"index":0,"delta":{"role":"assistant","content":""},"finish_reason":null}]}\n\n';
    const { settled, estimatedFrom } = await answer(opening + noQuota, { showUsage: false });
    expect(settled[0]).toMatchObject({ status: 'failed', errorCode: 'upstream_insufficient_quota', usage: { promptTokens: 0, completionTokens: 0, estimated: false } });
    expect(settled[0]?.usage.units).toBeUndefined();
    expect(estimatedFrom).toEqual([]);
  });

  it('reads OpenRouter’s refusals by the HTTP status its numeric code gives (no type): a rate limit mid-stream is billed nothing', async () => {
    const opening = 'data: {"id":"gen-1","object":"chat.completion.chunk","created":1,"model":"m","choices":[{"index":0,"delta":{"role":"assistant","content":""},"finish_reason":null}]}\n\n';
    for (const [code, errorCode] of [[429, 'upstream_rate_limited'], [402, 'upstream_insufficient_quota'], ['503', 'upstream_overloaded']] as const) {
      const refusal = `data: {"error":{"code":${JSON.stringify(code)},"message":"No luck"}}\n\n`;
      const { settled } = await answer(opening + refusal, { showUsage: false });
      expect(settled[0], String(code)).toMatchObject({ status: 'failed', errorCode, usage: { promptTokens: 0, completionTokens: 0 } });
    }
  });

  it('bills the estimate when the failure is the provider’s own (a server error), which may come after work not shown', async () => {
    const opening = 'data: {"id":"chatcmpl-1","object":"chat.completion.chunk","created":1,"model":"m","choices":[{"index":0,"delta":{"role":"assistant","content":""},"finish_reason":null}]}\n\n';
    const serverError = 'data: {"error":{"message":"The server had an error","type":"server_error"}}\n\n';
    const { settled } = await answer(opening + serverError, { showUsage: false });
    expect(settled[0]).toMatchObject({ status: 'failed', usage: ESTIMATE });
  });

  it('bills the estimate of what it generated when it failed after the answer began', async () => {
    const overloaded = 'data: {"error":{"message":"Overloaded","type":"overloaded_error"}}\n\n';
    const { settled, estimatedFrom } = await answer(recorded.slice(0, 3).join('') + overloaded, { showUsage: false });
    expect(settled[0]).toMatchObject({ status: 'failed', usage: ESTIMATE });
    expect(estimatedFrom[0]).not.toBe('');
  });
});

describe('streamAnswer of a chat stream that closes before its answer is complete (no finish_reason, no [DONE])', () => {
  const cutOff = recorded.slice(0, 3);
  const dataOfFrame = (event: string) => JSON.parse(event.slice(event.indexOf('data: ') + 'data: '.length)) as Record<string, unknown>;

  it('ends a native chat stream with an error frame after the chunks it relayed, and settles it as failed', async () => {
    const { events, settled } = await answer(cutOff.join(''), { showUsage: false });
    expect(events.slice(0, -1)).toEqual(cutOff);
    expect(dataOfFrame(events.at(-1) ?? '')).toMatchObject({ error: { type: 'upstream_error', code: 'upstream_stream_interrupted' } });
    expect(settled).toHaveLength(1);
    expect(settled[0]).toMatchObject({ status: 'failed', httpStatus: 502, errorCode: 'upstream_stream_interrupted', usage: ESTIMATE });
  });

  it('ends a translated Messages stream with an Anthropic error event, not an end_turn, and settles it as failed', async () => {
    const clientBody = { model: 'gpt-4o-mini', max_tokens: 64, stream: true, messages: [{ role: 'user', content: 'multiply' }] };
    const { events, settled } = await answer(cutOff.join(''), { showUsage: true, client: anthropicMessagesProtocol, clientBody });
    expect(events.some((event) => event.startsWith('event: message_delta') || event.startsWith('event: message_stop'))).toBe(false);
    expect(events.at(-1)).toMatch(/^event: error\n/);
    expect(dataOfFrame(events.at(-1) ?? '')).toMatchObject({ type: 'error', error: { type: 'api_error' } });
    expect(settled[0]).toMatchObject({ status: 'failed', httpStatus: 502, errorCode: 'upstream_stream_interrupted' });
  });

  it('ends a translated Responses stream with an error event and response.failed, not response.completed, and settles it as failed', async () => {
    const clientBody = { model: 'gpt-4o-mini', stream: true, input: 'multiply' };
    const { events, settled } = await answer(cutOff.join(''), { showUsage: true, client: openAiResponsesProtocol, clientBody });
    expect(events.map((event) => event.split('\n')[0]).slice(-2)).toEqual(['event: error', 'event: response.failed']);
    expect(events.some((event) => event.startsWith('event: response.completed'))).toBe(false);
    expect(settled[0]).toMatchObject({ status: 'failed', httpStatus: 502, errorCode: 'upstream_stream_interrupted' });
  });

  it('ends a translated stream whose finish chunk came without [DONE] as a complete answer', async () => {
    const withoutDone = recorded.filter((event) => event !== 'data: [DONE]\n\n');
    const clientBody = { model: 'gpt-4o-mini', max_tokens: 64, stream: true, messages: [{ role: 'user', content: 'multiply' }] };
    const { events, settled } = await answer(withoutDone.join(''), { showUsage: true, client: anthropicMessagesProtocol, clientBody });
    expect(dataOfFrame(events.find((event) => event.startsWith('event: message_delta')) ?? '')).toMatchObject({ delta: { stop_reason: 'tool_use' } });
    expect(events.at(-1)).toMatch(/^event: message_stop\n/);
    expect(settled[0]).toMatchObject({ status: 'completed', httpStatus: 200, finishReason: 'tool_calls' });
  });
});

describe('streamAnswer: the id the client saw, for looking its generation up', () => {
  const idOfFirstEvent = (events: string[]) => {
    const data = JSON.parse((events[0] ?? '').slice((events[0] ?? '').indexOf('data: ') + 'data: '.length)) as { id?: string; message?: { id: string } };
    return data.id ?? data.message?.id;
  };

  it("settles a native stream with its chunks' id, the upstream's", async () => {
    const { events, settled } = await answer(recorded.join(''), { showUsage: true });
    expect(settled[0]?.answerId).toBe(idOfFirstEvent(events));
    expect(settled[0]?.answerId).toBe(settled[0]?.upstreamId);
  });

  it("settles a translated Messages stream with the writer's msg_ id, not the upstream's", async () => {
    const clientBody = { model: 'gpt-4o-mini', max_tokens: 64, stream: true, messages: [{ role: 'user', content: 'multiply' }] };
    const { events, settled } = await answer(recorded.join(''), { showUsage: true, client: anthropicMessagesProtocol, clientBody });
    expect(idOfFirstEvent(events)).toBe('msg_gateway1');
    expect(settled[0]).toMatchObject({ answerId: 'msg_gateway1', upstreamId: expect.stringMatching(/^chatcmpl-/) });
  });
});
