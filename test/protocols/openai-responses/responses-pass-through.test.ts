import { describe, expect, it } from 'vitest';
import { GatewayError } from '../../../shared/core/errors.ts';
import { createResponsesPassThrough } from '../../../shared/protocols/openai-responses/responses-pass-through.ts';
import { presentResponsesObject } from '../../../shared/protocols/openai-responses/responses-native-response.ts';
import { createResponsesStreamReader } from '../../../shared/protocols/openai-responses/responses-stream-reader.ts';
import { createSseDecoder } from '../../../shared/transport/stream-decoder.ts';
import { readResponsesStreamWithOpenAiSdk } from '../../canonical/support/openai-sdk-responses-stream.ts';
import { responsesFixtureBody, utf8 } from '../../canonical/support/sse-replay.ts';
import { presentation } from '../../canonical/support/translate.ts';
import { readFixture } from '../../support/fixtures.ts';

/** A recorded stream through the pass-through, event by event, as the stream relay feeds it. */
async function passThrough(body: string, overrides: Parameters<typeof presentation>[0] = {}, upTo?: number) {
  const output = createResponsesPassThrough(presentation(overrides));
  const reader = createResponsesStreamReader();
  const events = createSseDecoder().push(utf8(body)).slice(0, upTo);
  let text = '';
  for (const event of events) text += await output.push(event, reader.push(event.payload ?? event.data));
  return { text, output };
}

describe('createResponsesPassThrough', () => {
  it('passes every event of a recorded stream byte for byte when no cost is injected', async () => {
    const body = responsesFixtureBody('responses-stream-reasoning-summary-function-call.chunks.txt');
    expect((await passThrough(body)).text).toBe(body);
  });

  it('adds usage.cost to the terminal event only, keeping the upstream usage and every other event as sent', async () => {
    const body = readFixture('openai-responses/responses-stream-text.sse');
    const { text } = await passThrough(body, { injectCost: true, priceUsd: () => '0.00000015' });
    const original = body.split(/(?<=\n\n)/);
    const shown = text.split(/(?<=\n\n)/);
    expect(shown.slice(0, -1)).toEqual(original.slice(0, -1));
    expect(shown.at(-1)).toMatch(/^event: response\.completed\ndata: /);
    expect(shown.at(-1)).toContain('"usage":{"input_tokens":11,"input_tokens_details":{"cached_tokens":0},"output_tokens":5,"output_tokens_details":{"reasoning_tokens":0},"total_tokens":16,"cost":0.00000015}');
    const read = await readResponsesStreamWithOpenAiSdk(text);
    expect(read.usage).toMatchObject({ input_tokens: 11, cost: 0.00000015 });
  });

  it('leaves the provider’s own price (OpenRouter’s usage.cost) out of the terminal event, every other event as sent', async () => {
    const body = readFixture('openai-responses/responses-stream-text.sse').replace('"total_tokens":16}', '"total_tokens":16,"cost":0.0123,"cost_details":{"upstream_inference_cost":0.01}}');
    expect(body).toContain('"cost":0.0123');
    const { text } = await passThrough(body);
    expect(text).not.toContain('0.0123');
    expect(text).not.toContain('cost_details');
    expect(text.split(/(?<=\n\n)/).slice(0, -1)).toEqual(body.split(/(?<=\n\n)/).slice(0, -1));
    expect((await readResponsesStreamWithOpenAiSdk(text)).usage).toMatchObject({ input_tokens: 11, output_tokens: 5 });
  });

  it('ends a stream the upstream broke off with an error event and response.failed numbered after the last event seen', async () => {
    const body = readFixture('openai-responses/responses-stream-function-call.sse');
    const { text, output } = await passThrough(body, {}, 5);
    const ending = output.fail?.(new GatewayError('upstream', 'Provider "openai" broke off the stream.', { code: 'upstream_stream_interrupted' })) ?? '';
    const [error, failed] = ending.split(/(?<=\n\n)/);
    expect(JSON.parse(error?.split('data: ')[1] ?? '')).toEqual({ type: 'error', code: 'upstream_stream_interrupted', message: 'Provider "openai" broke off the stream.', param: null, sequence_number: 5 });
    expect(JSON.parse(failed?.split('data: ')[1] ?? '')).toMatchObject({ type: 'response.failed', sequence_number: 6, response: { id: expect.stringMatching(/^resp_/), status: 'failed', error: { code: 'upstream_stream_interrupted' } } });
    await expect(readResponsesStreamWithOpenAiSdk(text + ending)).rejects.toThrow(/broke off the stream/);
    expect(output.fail?.(new GatewayError('upstream', 'again', { code: 'x' }))).toBe('');
  });
});

describe('presentResponsesObject', () => {
  const text = readFixture('openai-responses/responses-nonstream-text.json');
  const payload = JSON.parse(text) as Record<string, unknown>;
  const usage = { promptTokens: 11, completionTokens: 5, cachedTokens: 0, reasoningTokens: 0, estimated: false };

  it('returns a native response byte for byte without injection', () => {
    expect(presentResponsesObject(text, payload, usage, presentation())).toBe(text);
  });

  it('never shows the provider’s own price (OpenRouter’s usage.cost): left out without injection, the gateway’s with it', () => {
    const openRouter = { ...payload, usage: { ...(payload.usage as object), cost: 0.0123, cost_details: { upstream_inference_cost: 0.01 }, is_byok: false } };
    const plain = JSON.parse(presentResponsesObject(JSON.stringify(openRouter), openRouter, usage, presentation())) as { usage: Record<string, unknown> };
    expect(plain.usage).not.toHaveProperty('cost');
    expect(plain.usage).not.toHaveProperty('cost_details');
    const injected = JSON.parse(presentResponsesObject(JSON.stringify(openRouter), openRouter, usage, presentation({ injectCost: true, priceUsd: () => '0.0000012' }))) as { usage: Record<string, unknown> };
    expect(injected.usage).toMatchObject({ cost: 0.0000012 });
    expect(injected.usage).not.toHaveProperty('cost_details');
  });

  it('adds usage.cost as an exact decimal with injection', () => {
    const shown = JSON.parse(presentResponsesObject(text, payload, usage, presentation({ injectCost: true, priceUsd: () => '0.0000012' }))) as { usage: Record<string, unknown>; output: unknown[] };
    expect(shown.usage).toMatchObject({ input_tokens: (payload.usage as { input_tokens: number }).input_tokens, cost: 0.0000012 });
    expect(shown.output).toEqual(payload.output);
  });
});
