import { describe, expect, it } from 'vitest';
import type { TokenUsage } from '../../../shared/core/token-usage.ts';
import { anthropicMessagesProtocol } from '../../../shared/protocols/anthropic-messages/anthropic-messages-protocol.ts';
import { openAiChatProtocol } from '../../../shared/protocols/openai-chat/openai-chat-protocol.ts';
import { createSseDecoder } from '../../../shared/transport/stream-decoder.ts';
import { utf8 } from '../../canonical/support/sse-replay.ts';
import { presentation, splitFrames, translateStream } from '../../canonical/support/translate.ts';
import { readFixture } from '../../support/fixtures.ts';

const priced = { injectCost: true, priceUsd: (usage: TokenUsage) => `0.0000000${usage.promptTokens + usage.completionTokens}` } as const;

/** A recorded native stream through the Messages pass-through, event by event, as the stream relay feeds it. */
async function passThrough(body: string, overrides: Parameters<typeof presentation>[0] = {}): Promise<string> {
  const output = anthropicMessagesProtocol.createPassThrough(presentation(overrides));
  const reader = anthropicMessagesProtocol.createStreamReader();
  let text = '';
  for (const event of createSseDecoder().push(utf8(body))) text += await output.push(event, reader.push(event.payload ?? event.data));
  return text + (await output.end());
}

const dataOf = (frame: string | undefined) => JSON.parse(frame?.split('data: ')[1] ?? 'null') as { usage?: Record<string, unknown> };

describe('anthropicMessagesProtocol, native', () => {
  const text = readFixture('anthropic/messages-nonstream-text.json');
  const payload = JSON.parse(text) as { usage: Record<string, unknown> };
  const usage: TokenUsage = { promptTokens: 12, completionTokens: 29, cachedTokens: 0, reasoningTokens: 0, estimated: false };

  it('returns a complete message byte for byte without usage-cost injection', () => {
    expect(anthropicMessagesProtocol.presentNativeResponse(text, payload, usage, presentation())).toBe(text);
  });

  it("adds usage.cost as an exact decimal to a complete message, keeping the upstream's usage fields", () => {
    const shown = anthropicMessagesProtocol.presentNativeResponse(text, payload, usage, presentation(priced));
    expect(shown).toContain('"cost":0.000000041}');
    expect(JSON.parse(shown)).toEqual({ ...payload, usage: { ...payload.usage, cost: 0.000000041 } });
  });

  it('passes a recorded stream byte for byte without usage-cost injection', async () => {
    const body = readFixture('anthropic/messages-stream-thinking-then-tool-use.sse');
    expect(await passThrough(body)).toBe(body);
  });

  it('adds the cost of the whole message to the final message_delta only, every other event as sent', async () => {
    const body = readFixture('anthropic/messages-stream-text.sse');
    const original = splitFrames(body);
    const shown = splitFrames(await passThrough(body, priced));
    const deltaAt = original.findIndex((frame) => frame.startsWith('event: message_delta'));
    expect(shown.filter((_frame, index) => index !== deltaAt)).toEqual(original.filter((_frame, index) => index !== deltaAt));
    expect(shown[deltaAt]).toMatch(/^event: message_delta\ndata: /);
    // 10 input tokens (message_start) and 4 output tokens (message_delta).
    expect(shown[deltaAt]).toContain('"cost":0.000000014}');
    expect(dataOf(shown[deltaAt])).toEqual({ ...dataOf(original[deltaAt]), usage: { ...dataOf(original[deltaAt]).usage, cost: 0.000000014 } });
  });
});

describe('anthropicMessagesProtocol, translated', () => {
  const chatAnswer = JSON.parse(readFixture('openai-chat/chat-nonstream-text-usage-details.json')) as unknown;

  it('writes a complete message with usage.cost when usage-cost injection is on, and without it otherwise', () => {
    const canonical = openAiChatProtocol.readResponse(chatAnswer);
    const usage = canonical.usage as TokenUsage;
    const plain = JSON.parse(anthropicMessagesProtocol.writeResponse(canonical, presentation())) as { usage: Record<string, unknown> };
    const costed = JSON.parse(anthropicMessagesProtocol.writeResponse(canonical, presentation(priced))) as { usage: Record<string, unknown> };
    expect(plain.usage).not.toHaveProperty('cost');
    expect(costed.usage).toEqual({ ...plain.usage, cost: Number(priced.priceUsd(usage)) });
  });

  it("ends a translated stream with the metered usage and its cost in message_delta", async () => {
    const chunks = readFixture('openai-chat/chat-stream-tool-calls-include-usage.sse')
      .split('\n')
      .filter((line) => line.startsWith('data: '))
      .map((line) => line.slice('data: '.length))
      .map((data) => (data === '[DONE]' ? data : (JSON.parse(data) as unknown)));
    const frames = await translateStream(openAiChatProtocol, anthropicMessagesProtocol, chunks, { presentation: priced });
    const delta = frames.find((frame) => frame.startsWith('event: message_delta'));
    const { usage } = dataOf(delta) as { usage: { input_tokens: number; output_tokens: number; cost: number } };
    expect(usage.output_tokens).toBeGreaterThan(0);
    expect(usage.cost).toBe(Number(priced.priceUsd({ promptTokens: usage.input_tokens, completionTokens: usage.output_tokens, cachedTokens: 0, reasoningTokens: 0, estimated: false })));
    expect(frames.at(-1)).toMatch(/^event: message_stop/);
  });

  it('shows no cost in a translated stream without usage-cost injection', async () => {
    const frames = await translateStream(openAiChatProtocol, anthropicMessagesProtocol, [{ id: 'c', choices: [{ index: 0, delta: { content: 'hi' }, finish_reason: 'stop' }] }]);
    expect(frames.join('')).not.toContain('cost');
  });
});
