import { beforeAll, describe, expect, it } from 'vitest';
import type { CanonicalEvent } from '../../../shared/canonical/canonical-events.ts';
import { createCanonicalMeter } from '../../../shared/canonical/canonical-meter.ts';
import { anthropicMessagesProtocol } from '../../../shared/protocols/anthropic-messages/anthropic-messages-protocol.ts';
import { bedrockAnthropicMessagesProtocol } from '../../../shared/protocols/bedrock-anthropic-messages/bedrock-anthropic-messages-protocol.ts';
import { chooseBridge } from '../../../shared/protocols/bridge.ts';
import { loadWireProtocols, REACHABLE_PROTOCOLS } from '../../../shared/protocols/registry.ts';
import { openAiChatProtocol } from '../../../shared/protocols/openai-chat/openai-chat-protocol.ts';
import { anthropicChunkFrame, anthropicStreamFrames, concatFrames, eventFrame, exceptionFrame } from '../../support/bedrock-event-stream.ts';
import { hasBrokenJsonData } from '../../../shared/transport/stream-decoder.ts';
import { sseEvents } from '../../support/fake-openai-upstream.ts';
import { readFixture } from '../../support/fixtures.ts';
import { NO_EXTRA_FEATURES } from '../../support/upstream-features.ts';

// chooseBridge takes the protocols the pipeline loads first (registry.ts).
beforeAll(() => loadWireProtocols(REACHABLE_PROTOCOLS));

const MODEL = 'us.anthropic.claude-haiku-4-5-20251001-v1:0';
/** What Bedrock takes beyond its protocols: no custom tools. */
const CLAUDE_CODE_BETAS = 'claude-code-20250219,oauth-2025-04-20,interleaved-thinking-2025-05-14,fine-grained-tool-streaming-2025-05-14,context-management-2025-06-27';

async function decode(frames: Uint8Array[]) {
  const decoder = await bedrockAnthropicMessagesProtocol.createStreamDecoder();
  return [...decoder.push(concatFrames(frames)), ...decoder.end()];
}

describe('Claude on Bedrock (InvokeModel with the Messages body)', () => {
  it("carries a Messages client's body natively: model and stream out, Bedrock's version and the betas Bedrock accepts in", () => {
    const bridge = chooseBridge(anthropicMessagesProtocol, { protocols: ['bedrock-anthropic-messages', 'bedrock-converse'], features: NO_EXTRA_FEATURES }, {}, () => {
      throw new Error('a native request is never translated');
    });
    const body = { model: 'claude-haiku-4-5', max_tokens: 64, stream: true, messages: [{ role: 'user', content: 'Hi' }], metadata: { user_id: 'session-1' }, thinking: { type: 'enabled', budget_tokens: 1024 }, route: 'fallback' };
    const request = bridge.request(body, MODEL, { 'anthropic-version': '2023-06-01', 'anthropic-beta': CLAUDE_CODE_BETAS });

    expect(bridge.native).toBe(true);
    expect(request.path).toBe('/model/us.anthropic.claude-haiku-4-5-20251001-v1%3A0/invoke-with-response-stream');
    expect(request.headers).toEqual({ 'content-type': 'application/json', accept: 'application/vnd.amazon.eventstream' });
    expect(JSON.parse(request.body)).toEqual({
      max_tokens: 64,
      messages: [{ role: 'user', content: 'Hi' }],
      metadata: { user_id: 'session-1' },
      thinking: { type: 'enabled', budget_tokens: 1024 },
      anthropic_version: 'bedrock-2023-05-31',
      // Anthropic-only betas (OAuth, fine-grained tool streaming) would make Bedrock refuse the request.
      anthropic_beta: ['claude-code-20250219', 'interleaved-thinking-2025-05-14', 'context-management-2025-06-27'],
    });
  });

  it('translates a chat request into the Messages body InvokeModel takes', () => {
    const body = { model: 'claude', messages: [{ role: 'system', content: 'Terse.' }, { role: 'user', content: 'Hi' }], max_tokens: 20 };
    const bridge = chooseBridge(openAiChatProtocol, { protocols: ['bedrock-anthropic-messages', 'bedrock-converse'], features: NO_EXTRA_FEATURES }, body, () => openAiChatProtocol.readRequest(body));
    const request = bridge.request(body, MODEL, {});

    expect(bridge.native).toBe(false);
    expect(bridge.upstream.id).toBe('bedrock-anthropic-messages');
    expect(request.path).toBe('/model/us.anthropic.claude-haiku-4-5-20251001-v1%3A0/invoke');
    expect(JSON.parse(request.body)).toEqual({ max_tokens: 20, messages: [{ role: 'user', content: [{ type: 'text', text: 'Hi' }] }], system: [{ type: 'text', text: 'Terse.' }], anthropic_version: 'bedrock-2023-05-31' });
  });

  it('gives Claude Opus 4.7 on Bedrock a reasoning effort as adaptive thinking, the only thinking it takes', () => {
    const body = { model: 'claude', messages: [{ role: 'user', content: 'Hi' }], reasoning_effort: 'high' };
    const bridge = chooseBridge(openAiChatProtocol, { protocols: ['bedrock-anthropic-messages', 'bedrock-converse'], features: NO_EXTRA_FEATURES }, body, () => openAiChatProtocol.readRequest(body));
    const sent = JSON.parse(bridge.request(body, 'us.anthropic.claude-opus-4-7', {}).body) as Record<string, unknown>;

    expect(sent).toMatchObject({ thinking: { type: 'adaptive', display: 'summarized' }, output_config: { effort: 'high' }, anthropic_version: 'bedrock-2023-05-31' });
    expect(sent.thinking).not.toHaveProperty('budget_tokens');
  });

  it("turns each chunk back into Anthropic's SSE event, its JSON byte for byte", async () => {
    const recorded = readFixture('anthropic/messages-stream-text.sse');
    const events = await decode(anthropicStreamFrames(recorded, { inputTokenCount: 10, outputTokenCount: 4 }));

    expect(events).toHaveLength(7);
    // Every event but message_stop (which carries Bedrock's metrics) is the recorded event itself.
    expect(events.slice(0, 6).map((event) => event.raw)).toEqual(sseEvents(recorded).slice(0, 6));
    expect(events[6]?.raw).toMatch(/^event: message_stop\ndata: \{"type":"message_stop","amazon-bedrock-invocationMetrics":\{"inputTokenCount":10,/);
  });

  it("meters from Bedrock's invocation metrics, keeping the cache counts the events reported when the metrics leave them out", async () => {
    const recorded = readFixture('anthropic/messages-stream-cache-usage-server-tool.chunks.txt');
    const sse = recorded.split('\n').filter((line) => line !== '').map((line) => `event: x\ndata: ${line}\n\n`).join('');
    const meter = createCanonicalMeter();
    const reader = bedrockAnthropicMessagesProtocol.createStreamReader();
    for (const event of await decode(anthropicStreamFrames(sse, { inputTokenCount: 7, outputTokenCount: 300 }))) meter.observe(reader.push(event.payload));

    // The recorded stream's last usage read 6289 prompt tokens from the cache and wrote 3337; the metrics count
    // 7 uncached input tokens and 300 output tokens, and no cache.
    expect(meter.result().usage).toEqual({ promptTokens: 7 + 6289 + 3337, completionTokens: 300, cachedTokens: 6289, cacheWriteTokens: 3337, reasoningTokens: 0, estimated: false });
  });

  it("takes the metrics' cache reads and writes when Bedrock reports them", async () => {
    const events: CanonicalEvent[] = [];
    const reader = bedrockAnthropicMessagesProtocol.createStreamReader();
    const frames = anthropicStreamFrames(readFixture('anthropic/messages-stream-text.sse'), { inputTokenCount: 10, outputTokenCount: 4, cacheReadInputTokenCount: 2000, cacheWriteInputTokenCount: 50 });
    for (const event of await decode(frames)) events.push(...reader.push(event.payload));

    expect(events.at(-1)).toEqual({ type: 'usage', usage: { promptTokens: 2060, completionTokens: 4, cachedTokens: 2000, cacheWriteTokens: 50, reasoningTokens: 0, estimated: false } });
  });

  it('keeps the one-hour part of the writes the events reported, which the metrics do not split', async () => {
    const sse = readFixture('anthropic/messages-stream-text.sse').replace(
      '"cache_creation_input_tokens":0,"cache_read_input_tokens":0,"cache_creation":{"ephemeral_5m_input_tokens":0,"ephemeral_1h_input_tokens":0}',
      '"cache_creation_input_tokens":50,"cache_read_input_tokens":0,"cache_creation":{"ephemeral_5m_input_tokens":20,"ephemeral_1h_input_tokens":30}',
    ).replace('"cache_creation_input_tokens":0,"cache_read_input_tokens":0,"output_tokens":4', '"cache_creation_input_tokens":50,"cache_read_input_tokens":0,"output_tokens":4');
    const events: CanonicalEvent[] = [];
    const reader = bedrockAnthropicMessagesProtocol.createStreamReader();
    for (const event of await decode(anthropicStreamFrames(sse, { inputTokenCount: 10, outputTokenCount: 4, cacheWriteInputTokenCount: 50 }))) events.push(...reader.push(event.payload));

    expect(events.at(-1)).toMatchObject({ type: 'usage', usage: { promptTokens: 60, cacheWriteTokens: 50, cacheWrite1hTokens: 30 } });
  });

  it('tells a stream that closed before its stop reason as cut off, and not one that ended or failed', async () => {
    const events = await decode(anthropicStreamFrames(readFixture('anthropic/messages-stream-text.sse'), { inputTokenCount: 10, outputTokenCount: 4 }));
    const stopReason = events.findIndex((event) => event.raw.startsWith('event: message_delta'));
    const cutOffAfter = (count: number, extra: Uint8Array[] = []) => async () => {
      const reader = bedrockAnthropicMessagesProtocol.createStreamReader();
      for (const event of [...events.slice(0, count), ...(await decode(extra))]) reader.push(event.payload);
      return reader.cutOff?.();
    };

    expect(await cutOffAfter(stopReason)()).toBe(true);
    expect(await cutOffAfter(stopReason + 1)()).toBe(false);
    expect(await cutOffAfter(events.length)()).toBe(false);
    expect(await cutOffAfter(3, [exceptionFrame('modelStreamErrorException', 'The model stream failed.')])()).toBe(false);
  });

  it('marks a chunk whose bytes hold no Anthropic event (cut JSON, or no base64 at all) as broken, to be dropped as broken JSON is, never relayed', async () => {
    const cut = anthropicChunkFrame('{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"LOST');
    const garbage = eventFrame('chunk', { bytes: '%%% not base64 %%%' });
    const events = await decode([cut, garbage, anthropicChunkFrame('{"type":"ping"}')]);

    expect(events.map((event) => hasBrokenJsonData(event))).toEqual([true, true, false]);
    expect(events.slice(0, 2).map((event) => event.raw)).toEqual(['', '']);
    expect(events[2]?.raw).toBe('event: ping\ndata: {"type":"ping"}\n\n');
  });

  it("gives an exception as Anthropic's error event, so a Messages client reads one stream format", async () => {
    const [event] = await decode([exceptionFrame('throttlingException', 'Too many tokens, please wait before trying again.')]);

    expect(event?.raw).toBe('event: error\ndata: {"type":"error","error":{"type":"rate_limit_error","message":"Too many tokens, please wait before trying again."}}\n\n');
    expect(bedrockAnthropicMessagesProtocol.createStreamReader().push(event?.payload)).toEqual([{ type: 'error', errorType: 'rate-limit', message: 'Too many tokens, please wait before trying again.' }]);
  });

  it("relays Bedrock's refusal of a request to a Messages client in Anthropic's error body", async () => {
    const bridge = chooseBridge(anthropicMessagesProtocol, { protocols: ['bedrock-anthropic-messages'], features: NO_EXTRA_FEATURES }, {}, () => {
      throw new Error('not translated');
    });
    const answer = bedrockAnthropicMessagesProtocol.interpretErrorAnswer?.({
      status: 400,
      retryAfter: null,
      contentType: 'application/json',
      body: '{"message":"messages.0.content: Field required"}',
      errorType: 'ValidationException:http://internal.amazon.com/coral/com.amazon.bedrock/',
    });
    const relayed = bridge.relayUpstreamError(answer as NonNullable<typeof answer>);

    expect(relayed.status).toBe(400);
    expect(JSON.parse(relayed.body as string)).toEqual({ type: 'error', error: { type: 'invalid_request_error', message: 'messages.0.content: Field required' } });
  });

  it('serves only Anthropic models: other Bedrock models go through Converse', async () => {
    const { modelProtocols } = await import('../../../shared/core/project-config.ts');
    const bedrock = { protocols: ['bedrock-anthropic-messages' as const, 'bedrock-converse' as const] };

    expect(modelProtocols({ model: MODEL }, bedrock)).toEqual(['bedrock-anthropic-messages', 'bedrock-converse']);
    expect(modelProtocols({ model: 'amazon.nova-pro-v1:0' }, bedrock)).toEqual(['bedrock-converse']);
    expect(modelProtocols({ model: 'meta.llama3-3-70b-instruct-v1:0' }, bedrock)).toEqual(['bedrock-converse']);
  });
});
