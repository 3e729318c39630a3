import { describe, expect, it } from 'vitest';
import type { CanonicalEvent } from '../../../shared/canonical/canonical-events.ts';
import { createCanonicalMeter } from '../../../shared/canonical/canonical-meter.ts';
import { anthropicMessagesProtocol } from '../../../shared/protocols/anthropic-messages/anthropic-messages-protocol.ts';
import { bedrockConverseProtocol } from '../../../shared/protocols/bedrock-converse/bedrock-converse-protocol.ts';
import { openAiChatProtocol } from '../../../shared/protocols/openai-chat/openai-chat-protocol.ts';
import { concatFrames, converseStreamFrames, errorFrame, exceptionFrame } from '../../support/bedrock-event-stream.ts';
import { readFixture } from '../../support/fixtures.ts';
import { translateStream } from '../../canonical/support/translate.ts';

/** A recorded ConverseStream, framed as Bedrock sends it, through the protocol's decoder: the events' payloads. */
async function recordedPayloads(name: string, extra: Uint8Array[] = []): Promise<unknown[]> {
  const decoder = await bedrockConverseProtocol.createStreamDecoder();
  const events = [...decoder.push(concatFrames([...converseStreamFrames(readFixture(`bedrock/${name}`)), ...extra])), ...decoder.end()];
  return events.map((event) => event.payload);
}

function read(payloads: unknown[]): CanonicalEvent[] {
  const reader = bedrockConverseProtocol.createStreamReader();
  return payloads.flatMap((payload) => reader.push(payload));
}

describe('createConverseStreamReader', () => {
  it('reads a recorded text stream: the text, the finish and the usage', async () => {
    const events = read(await recordedPayloads('converse-stream-text.chunks.txt'));
    const meter = createCanonicalMeter();
    meter.observe(events);

    expect(events[0]).toEqual({ type: 'message-start', id: '', model: '' });
    expect(meter.result()).toMatchObject({
      completionText: 'Let me count the "r"s in "strawberry":\n\ns-t-**r**-a-w-b-e-**r**-**r**-y\n\nThere are **3** r\'s in "strawberry."',
      finishReason: 'end_turn',
      usage: { promptTokens: 22, completionTokens: 55, estimated: false },
    });
  });

  it("reads a recorded non-Anthropic model's tool use (its input in one delta, the finish before the usage)", async () => {
    const events = read(await recordedPayloads('converse-stream-tool-call.chunks.txt'));

    expect(events.filter((event) => event.type.startsWith('tool-call'))).toEqual([
      { type: 'tool-call-start', index: 0, id: 'functions.read_file:1', name: 'read_file' },
      { type: 'tool-call-delta', index: 0, argumentsDelta: '{"target_file": "src/cursor-config.ts"}' },
      { type: 'tool-call-end', index: 0 },
    ]);
    expect(events.slice(-2)).toEqual([
      { type: 'finish', reason: 'tool-calls', raw: 'tool_use' },
      { type: 'usage', usage: { promptTokens: 260, completionTokens: 116, cachedTokens: 0, cacheWriteTokens: 0, reasoningTokens: 0, estimated: false } },
    ]);
  });

  it('reads recorded reasoning deltas and the signature that closes them', async () => {
    const reasoning = read(await recordedPayloads('converse-stream-reasoning.chunks.txt')).filter((event) => event.type === 'reasoning-delta');

    expect(reasoning.map((event) => event.text).join('')).toBe('Let me count the r\'s in "strawberry":\n\ns-t-r-a-w-b-e-r-r-y\n\nr appears at positions 3, 8, and 9.\n\nSo there are 3 r\'s.');
    expect(reasoning.at(-1)).toMatchObject({ text: '', signature: expect.stringMatching(/^Ep0CCkg/) });
  });

  it('ends with the error an exception message carries, and reads nothing after it', async () => {
    const payloads = await recordedPayloads('converse-stream-text.chunks.txt', [exceptionFrame('throttlingException', 'Too many tokens, please wait before trying again.')]);
    const events = read([...payloads.slice(0, 3), ...payloads.slice(-1), ...payloads.slice(3)]);

    expect(events.at(-1)).toEqual({ type: 'error', errorType: 'rate-limit', message: 'Too many tokens, please wait before trying again.' });
    expect(events.filter((event) => event.type === 'text-delta')).toHaveLength(2);
  });

  it('tells a stream that closed before its messageStop as cut off, and not one that ended or failed', async () => {
    const payloads = await recordedPayloads('converse-stream-text.chunks.txt');
    const stop = payloads.findIndex((payload) => JSON.stringify(payload).startsWith('{"messageStop"'));
    const cutOffAfter = (count: number) => {
      const reader = bedrockConverseProtocol.createStreamReader();
      for (const payload of payloads.slice(0, count)) reader.push(payload);
      return reader.cutOff?.();
    };
    const failed = bedrockConverseProtocol.createStreamReader();
    for (const payload of [...payloads.slice(0, 3), { throttlingException: { message: 'Too many tokens.' } }]) failed.push(payload);

    expect(cutOffAfter(3)).toBe(true);
    expect(cutOffAfter(stop)).toBe(true);
    // The answer ended at its messageStop; only its usage (metadata) is missing.
    expect(cutOffAfter(stop + 1)).toBe(false);
    expect(cutOffAfter(payloads.length)).toBe(false);
    expect(failed.cutOff?.()).toBe(false);
  });

  it('reads a messageStop Bedrock found malformed (malformed_tool_use) as a failed finish, and the usage after it', async () => {
    const payloads = (await recordedPayloads('converse-stream-text.chunks.txt')).map((payload) =>
      JSON.stringify(payload).startsWith('{"messageStop"') ? { messageStop: { stopReason: 'malformed_tool_use' } } : payload,
    );
    const reader = bedrockConverseProtocol.createStreamReader();
    const events = payloads.flatMap((payload) => reader.push(payload));

    expect(events.find((event) => event.type === 'finish')).toEqual({ type: 'finish', reason: 'error', raw: 'malformed_tool_use' });
    expect(events.at(-1)).toMatchObject({ type: 'usage', usage: { promptTokens: 22, completionTokens: 55 } });
    expect(reader.cutOff?.()).toBe(false);
  });

  it('ends with the error an unmodelled error message carries in its headers, whatever its code', async () => {
    const payloads = await recordedPayloads('converse-stream-text.chunks.txt', [errorFrame('InternalFailure', 'The request processing has failed because of an unknown error.')]);
    const events = read([...payloads.slice(0, 3), ...payloads.slice(-1), ...payloads.slice(3)]);

    expect(events.at(-1)).toEqual({ type: 'error', errorType: 'server', message: 'The request processing has failed because of an unknown error.' });
    expect(events.some((event) => event.type === 'finish')).toBe(false);
  });

  it("is translated into a chat stream and into Anthropic's events with the recorded usage", async () => {
    const payloads = await recordedPayloads('converse-stream-tool-call.chunks.txt');
    const chat = await translateStream(bedrockConverseProtocol, openAiChatProtocol, payloads, { presentation: { showUsage: true, model: 'moonshot.kimi-k2-thinking' } });
    expect(chat.at(-1)).toBe('data: [DONE]\n\n');
    expect(chat.join('')).toContain('"name":"read_file"');
    expect(chat.at(-2)).toContain('"usage":{"prompt_tokens":260,"completion_tokens":116');

    const messages = (await translateStream(bedrockConverseProtocol, anthropicMessagesProtocol, payloads)).join('');
    expect(messages).toContain('"stop_reason":"tool_use"');
    expect(messages).toContain('"output_tokens":116');
  });

  it("translates a stop at the request's only stop sequence into Anthropic's stop_sequence stop naming it, and into a chat 'stop'", async () => {
    const decoder = await bedrockConverseProtocol.createStreamDecoder();
    const chunks = readFixture('bedrock/converse-stream-text.chunks.txt').replace('"stopReason":"end_turn"', '"stopReason":"stop_sequence"');
    const payloads = [...decoder.push(concatFrames(converseStreamFrames(chunks))), ...decoder.end()].map((event) => event.payload);
    const request = anthropicMessagesProtocol.readRequest({ model: 'nova', max_tokens: 100, stop_sequences: ['###'], messages: [{ role: 'user', content: 'strawberry?' }] });

    const reader = bedrockConverseProtocol.createStreamReader(request);
    expect(payloads.flatMap((payload) => reader.push(payload)).filter((event) => event.type === 'finish')).toEqual([
      { type: 'finish', reason: 'stop', raw: 'stop_sequence', stopSequence: '###' },
    ]);
    const messageDelta = (await translateStream(bedrockConverseProtocol, anthropicMessagesProtocol, payloads, { request })).find((frame) => frame.startsWith('event: message_delta'));
    expect(JSON.parse(messageDelta?.split('data: ')[1] ?? '')).toMatchObject({ delta: { stop_reason: 'stop_sequence', stop_sequence: '###' } });
    const chat = await translateStream(bedrockConverseProtocol, openAiChatProtocol, payloads, { request });
    expect(chat.join('')).toContain('"finish_reason":"stop"');
  });
});
