import { describe, expect, it } from 'vitest';
import { anthropicStreamFrames, exceptionFrame } from '../support/bedrock-event-stream.ts';
import { sendBedrockError, sendEventStream } from '../support/fake-bedrock-runtime.ts';
import { readFixture } from '../support/fixtures.ts';
import { anthropic, bedrock, CLAUDE, generation, lastRequest, METRICS, recordedAnswers, ROLE, useBedrockGateway } from './bedrock-fixtures.ts';

useBedrockGateway();

describe('Claude on Bedrock for a Messages client (native)', () => {
  it("streams Anthropic's events back, signed with the role's credentials, metered from Bedrock's invocation metrics", async () => {
    bedrock.answerWith(recordedAnswers);
    const stream = anthropic({ 'x-request-id': 'bedrock-native-stream', 'anthropic-beta': 'claude-code-20250219,oauth-2025-04-20,interleaved-thinking-2025-05-14' }).messages.stream({
      model: 'claude-haiku-4-5',
      max_tokens: 64,
      messages: [{ role: 'user', content: 'Say hello' }],
    });
    const message = await stream.finalMessage();

    expect(message.content).toEqual([{ type: 'text', text: 'Hello' }]);
    const seen = lastRequest();
    expect(seen).toMatchObject({ model: CLAUDE, operation: 'invoke-with-response-stream', authorization: { kind: 'sigv4', accessKeyId: ROLE.accessKeyId, region: 'us-east-1', service: 'bedrock', sessionToken: ROLE.sessionToken } });
    expect(seen.body).toEqual({
      max_tokens: 64,
      messages: [{ role: 'user', content: 'Say hello' }],
      anthropic_version: 'bedrock-2023-05-31',
      anthropic_beta: ['claude-code-20250219', 'interleaved-thinking-2025-05-14'],
    });

    const record = await generation('bedrock-native-stream');
    // Bedrock's metrics (11 in, 5 out), not the events' own counts (10 in, 4 out): 11 × 1000 + 5 × 5000 nano-USD.
    expect(record).toMatchObject({ model: `bedrock/${CLAUDE}`, provider: 'bedrock', tokens_prompt: 11, tokens_completion: 5, total_cost: (11 * 1000 + 5 * 5000) / 1e9, status: 'completed', finish_reason: 'stop', native_finish_reason: 'end_turn' });
  });

  it("returns the message InvokeModel answered as it came, with Anthropic's usage metered", async () => {
    bedrock.answerWith(recordedAnswers);
    const message = await anthropic({ 'x-request-id': 'bedrock-native-json' }).messages.create({ model: `bedrock/${CLAUDE}`, max_tokens: 64, messages: [{ role: 'user', content: 'Hello' }] });

    expect(message).toEqual(JSON.parse(readFixture('anthropic/messages-nonstream-text.json')));
    expect(lastRequest()).toMatchObject({ operation: 'invoke', body: { anthropic_version: 'bedrock-2023-05-31' } });
    expect(await generation('bedrock-native-json')).toMatchObject({ tokens_prompt: 12, tokens_completion: 29 });
  });

  it("passes Bedrock's refusal of the request to the client in Anthropic's words and status", async () => {
    bedrock.answerWith((_request, response) => sendBedrockError(response, 400, 'ValidationException', 'max_tokens: must be at most 8192'));

    await expect(anthropic().messages.create({ model: 'claude-haiku-4-5', max_tokens: 9_000, messages: [{ role: 'user', content: 'Hi' }] })).rejects.toMatchObject({
      status: 400,
      error: { type: 'error', error: { type: 'invalid_request_error', message: 'max_tokens: must be at most 8192' } },
    });
  });

  it("ends the stream with Anthropic's error event when Bedrock sends an exception mid-stream, metered as failed", async () => {
    bedrock.answerWith((_request, response) => {
      const frames = anthropicStreamFrames(readFixture('anthropic/messages-stream-text.sse'), METRICS).slice(0, 3);
      return sendEventStream(response, [...frames, exceptionFrame('modelStreamErrorException', 'The model stream failed.')]);
    });
    const stream = anthropic({ 'x-request-id': 'bedrock-stream-exception' }).messages.stream({ model: 'claude-haiku-4-5', max_tokens: 64, messages: [{ role: 'user', content: 'Hi' }] });

    await expect(stream.finalMessage()).rejects.toMatchObject({ error: { type: 'error', error: { type: 'api_error', message: 'The model stream failed.' } } });
    // A failure of the model's (not a refusal to serve): the prompt the provider announced is billed (metering.md).
    expect(await generation('bedrock-stream-exception')).toMatchObject({ status: 'failed', error_code: 'upstream_error', tokens_prompt: 10 });
  });

  it("ends a stream Bedrock closed before the answer's end with Anthropic's error event, not a complete answer, metered as failed", async () => {
    // The connection closes cleanly between two event-stream messages, after the text and before message_delta.
    bedrock.answerWith((_request, response) => sendEventStream(response, anthropicStreamFrames(readFixture('anthropic/messages-stream-text.sse'), METRICS).slice(0, 5)));
    const stream = anthropic({ 'x-request-id': 'bedrock-stream-cut-off' }).messages.stream({ model: 'claude-haiku-4-5', max_tokens: 64, messages: [{ role: 'user', content: 'Hi' }] });

    await expect(stream.finalMessage()).rejects.toMatchObject({ error: { type: 'error', error: { type: 'api_error', message: 'Provider "bedrock" closed the stream before the answer was complete.' } } });
    expect(await generation('bedrock-stream-cut-off')).toMatchObject({ status: 'failed', error_code: 'upstream_stream_interrupted' });
  });
});
