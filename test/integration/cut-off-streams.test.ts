import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sendSse, sseEvents, startFakeOpenAiUpstream, type FakeUpstream } from '../support/fake-openai-upstream.ts';
import { readFixture } from '../support/fixtures.ts';
import { startTestGateway, type TestGateway } from '../support/test-gateway.ts';

/**
 * A provider that closes its stream cleanly in the middle of the answer (a chat stream with no finish_reason
 * and no `[DONE]`; a Messages stream with no stop reason and no `message_stop`): every client, native or
 * translated, is told in its own protocol that the answer failed, and the request is metered as failed.
 * A finish without `[DONE]`, or a stop reason without `message_stop`, is still a complete answer.
 */
let gateway: TestGateway;
let upstream: FakeUpstream;
let anthropic: FakeUpstream;
let responses: FakeUpstream;
let key: string;

const recorded = sseEvents(readFixture('openai-chat/chat-stream-text-include-usage.sse'));
/** The role chunk, "The" and " result": the answer's first words, then the connection closes. */
const cutOff = recorded.slice(0, 3);
const withoutDone = recorded.filter((event) => !event.startsWith('data: [DONE]'));

const recordedMessages = sseEvents(readFixture('anthropic/messages-stream-text.sse'));
/** message_start, the text block's start, a ping and "Hello": then the connection closes. */
const messagesCutOff = recordedMessages.slice(0, 4);
const withoutMessageStop = recordedMessages.filter((event) => !event.startsWith('event: message_stop'));

const recordedResponses = sseEvents(readFixture('openai-responses/responses-stream-text.sse'));
/** Every event up to the answer's text, without response.completed: then the connection closes. */
const responsesCutOff = recordedResponses.filter((event) => !event.includes('"type":"response.completed"'));

beforeAll(async () => {
  upstream = await startFakeOpenAiUpstream();
  anthropic = await startFakeOpenAiUpstream();
  responses = await startFakeOpenAiUpstream();
  gateway = await startTestGateway();
  await gateway.admin({ command: 'project.create', projectId: 'cut-off' });
  await gateway.admin({ command: 'provider.set', projectId: 'cut-off', provider: 'vllm', protocol: 'openai', apiKey: 'local-vllm-key', baseUrl: upstream.baseUrl });
  await gateway.admin({ command: 'model.allow', projectId: 'cut-off', slug: 'vllm/qwen3-8b', inputMicrosPer1k: 150, outputMicrosPer1k: 600 });
  await gateway.admin({ command: 'provider.set', projectId: 'cut-off', provider: 'anthropic', apiKey: 'sk-ant-upstream-0123456789', baseUrl: anthropic.baseUrl });
  await gateway.admin({ command: 'model.allow', projectId: 'cut-off', slug: 'anthropic/claude-haiku-4-5', inputMicrosPer1k: 1000, outputMicrosPer1k: 5000 });
  await gateway.admin({ command: 'provider.set', projectId: 'cut-off', provider: 'codexy', protocol: 'openai', apiKey: 'sk-codexy-0123456789', baseUrl: responses.baseUrl, responses: 'native' });
  await gateway.admin({ command: 'model.allow', projectId: 'cut-off', slug: 'codexy/gpt-5.5', inputMicrosPer1k: 1000, outputMicrosPer1k: 8000, upstreamApi: 'responses' });
  key = (await gateway.admin<{ key: string }>({ command: 'key.create', projectId: 'cut-off' })).key;
});

afterAll(async () => {
  await gateway?.close();
  await upstream?.close();
  await anthropic?.close();
  await responses?.close();
});

/** The request's recorded status, once its record is written (a client may read the error frame before the request settles). */
async function generationStatus(requestId: string): Promise<string | undefined> {
  const status = async () => {
    await gateway.host.drainUsage();
    const response = await fetch(`${gateway.url}/v1/generation?id=${encodeURIComponent(requestId)}`, { headers: { authorization: `Bearer ${key}` } });
    return ((await response.json()) as { status?: string }).status;
  };
  await expect.poll(status, { timeout: 3_000, interval: 50 }).toBeDefined();
  return status();
}

const anthropicClient = (requestId: string) => new Anthropic({ authToken: key, apiKey: null, baseURL: gateway.url, maxRetries: 0, defaultHeaders: { 'x-request-id': requestId } });

describe('a chat stream the provider closes before the answer is complete', () => {
  it('ends a native chat stream with an error the OpenAI SDK raises, metered as failed', async () => {
    upstream.answerWith((_request, response) => sendSse(response, cutOff));
    const stream = await gateway.openai(key, { defaultHeaders: { 'x-request-id': 'cut-chat' } }).chat.completions.create({ model: 'vllm/qwen3-8b', stream: true, messages: [{ role: 'user', content: 'Multiply' }] });
    let text = '';
    const failure = await (async () => {
      for await (const chunk of stream) text += chunk.choices[0]?.delta.content ?? '';
    })().catch((thrown: unknown) => thrown);
    expect(text).toBe('The result');
    expect(failure).toBeInstanceOf(OpenAI.APIError);
    expect(failure).toMatchObject({ code: 'upstream_stream_interrupted' });
    expect(await generationStatus('cut-chat')).toBe('failed');
  });

  it('ends a translated Messages stream with an error event the Anthropic SDK raises, not end_turn, metered as failed', async () => {
    upstream.answerWith((_request, response) => sendSse(response, cutOff));
    const stream = anthropicClient('cut-messages').messages.stream({ model: 'vllm/qwen3-8b', max_tokens: 64, messages: [{ role: 'user', content: 'Multiply' }] });
    await expect(stream.finalMessage()).rejects.toThrow(/closed the stream before the answer was complete/);
    expect(await generationStatus('cut-messages')).toBe('failed');
  });

  it('ends a translated Responses stream with response.failed carrying the message as far as it came, metered as failed', async () => {
    upstream.answerWith((_request, response) => sendSse(response, cutOff));
    const response = await fetch(`${gateway.url}/v1/responses`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', 'x-request-id': 'cut-responses' },
      body: JSON.stringify({ model: 'vllm/qwen3-8b', stream: true, input: 'Multiply' }),
    });
    const events = sseEvents(await response.text()).map((event) => JSON.parse(event.slice(event.indexOf('data: ') + 'data: '.length)) as { type: string; response?: { status: string; output: unknown[] } });
    expect(events.map((event) => event.type).slice(-2)).toEqual(['error', 'response.failed']);
    expect(events.at(-1)?.response).toMatchObject({
      status: 'failed',
      error: { code: 'upstream_stream_interrupted' },
      output: [{ type: 'message', status: 'incomplete', content: [{ type: 'output_text', text: 'The result' }] }],
    });
    expect(await generationStatus('cut-responses')).toBe('failed');
  });

  it('takes a finish chunk without [DONE] as a complete answer', async () => {
    upstream.answerWith((_request, response) => sendSse(response, withoutDone));
    const message = await anthropicClient('finish-without-done').messages.stream({ model: 'vllm/qwen3-8b', max_tokens: 64, messages: [{ role: 'user', content: 'Multiply' }] }).finalMessage();
    expect(message.stop_reason).toBe('end_turn');
    expect(await generationStatus('finish-without-done')).toBe('completed');
  });
});

describe('a Messages stream Anthropic closes before the answer is complete', () => {
  it('ends the native stream after the bytes relayed with an error event the Anthropic SDK raises, metered as failed', async () => {
    anthropic.answerWith((_request, response) => sendSse(response, messagesCutOff));
    const response = await fetch(`${gateway.url}/v1/messages`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', 'anthropic-version': '2023-06-01', 'x-request-id': 'cut-native-raw' },
      body: JSON.stringify({ model: 'claude-haiku-4-5', max_tokens: 64, stream: true, messages: [{ role: 'user', content: 'Hi' }] }),
    });
    const events = sseEvents(await response.text());
    expect(events.slice(0, 4)).toEqual(messagesCutOff);
    expect(events.slice(4)).toEqual([`event: error\ndata: {"type":"error","error":{"type":"api_error","message":"Provider \\"anthropic\\" closed the stream before the answer was complete."}}\n\n`]);
    expect(await generationStatus('cut-native-raw')).toBe('failed');

    anthropic.answerWith((_request, response) => sendSse(response, messagesCutOff));
    const stream = anthropicClient('cut-native').messages.stream({ model: 'claude-haiku-4-5', max_tokens: 64, messages: [{ role: 'user', content: 'Hi' }] });
    await expect(stream.finalMessage()).rejects.toThrow(/closed the stream before the answer was complete/);
    expect(await generationStatus('cut-native')).toBe('failed');
  });

  it('ends a translated chat stream with an error the OpenAI SDK raises, metered as failed', async () => {
    anthropic.answerWith((_request, response) => sendSse(response, messagesCutOff));
    const stream = await gateway.openai(key, { defaultHeaders: { 'x-request-id': 'cut-anthropic-chat' } }).chat.completions.create({ model: 'claude-haiku-4-5', stream: true, messages: [{ role: 'user', content: 'Hi' }] });
    const failure = await (async () => {
      for await (const chunk of stream) void chunk;
    })().catch((thrown: unknown) => thrown);
    expect(failure).toBeInstanceOf(OpenAI.APIError);
    expect(failure).toMatchObject({ code: 'upstream_stream_interrupted' });
    expect(await generationStatus('cut-anthropic-chat')).toBe('failed');
  });

  it('takes a stop reason without message_stop as a complete answer, relayed as it came', async () => {
    anthropic.answerWith((_request, response) => sendSse(response, withoutMessageStop));
    const response = await fetch(`${gateway.url}/v1/messages`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', 'anthropic-version': '2023-06-01', 'x-request-id': 'stop-without-message-stop' },
      body: JSON.stringify({ model: 'claude-haiku-4-5', max_tokens: 64, stream: true, messages: [{ role: 'user', content: 'Hi' }] }),
    });
    expect(sseEvents(await response.text())).toEqual(withoutMessageStop);
    expect(await generationStatus('stop-without-message-stop')).toBe('completed');
  });
});

describe('a Responses stream the provider closes before its terminal event', () => {
  it('ends the native stream after the events relayed with error and response.failed, metered as failed', async () => {
    responses.answerWith((_request, response) => sendSse(response, responsesCutOff));
    const response = await fetch(`${gateway.url}/v1/responses`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', 'x-request-id': 'cut-responses-native' },
      body: JSON.stringify({ model: 'codexy/gpt-5.5', stream: true, input: 'ping' }),
    });
    const events = sseEvents(await response.text());
    expect(events.slice(0, responsesCutOff.length)).toEqual(responsesCutOff);
    const closing = events.slice(responsesCutOff.length).map((event) => JSON.parse(event.slice(event.indexOf('data: ') + 'data: '.length)) as { type: string; code?: string });
    expect(closing.map((event) => event.type)).toEqual(['error', 'response.failed']);
    expect(closing[0]).toMatchObject({ code: 'upstream_stream_interrupted' });
    expect(await generationStatus('cut-responses-native')).toBe('failed');
  });

  it('ends a translated chat stream with an error the OpenAI SDK raises, never a finish, metered as failed', async () => {
    responses.answerWith((_request, response) => sendSse(response, responsesCutOff));
    const stream = await gateway.openai(key, { defaultHeaders: { 'x-request-id': 'cut-responses-chat' } }).chat.completions.create({ model: 'codexy/gpt-5.5', stream: true, messages: [{ role: 'user', content: 'ping' }] });
    const finishes: unknown[] = [];
    const failure = await (async () => {
      for await (const chunk of stream) finishes.push(chunk.choices[0]?.finish_reason);
    })().catch((thrown: unknown) => thrown);
    expect(failure).toBeInstanceOf(OpenAI.APIError);
    expect(failure).toMatchObject({ code: 'upstream_stream_interrupted' });
    expect(finishes.filter(Boolean)).toEqual([]);
    expect(await generationStatus('cut-responses-chat')).toBe('failed');
  });
});
