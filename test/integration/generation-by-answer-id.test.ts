import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recordedAnthropicAnswer } from '../support/fake-anthropic-upstream.ts';
import { sendJson, sendSse, sseEvents, startFakeOpenAiUpstream, type FakeUpstream } from '../support/fake-openai-upstream.ts';
import { recordedResponsesAnswer } from '../support/fake-responses-upstream.ts';
import { readFixture } from '../support/fixtures.ts';
import { startTestGateway, type TestGateway } from '../support/test-gateway.ts';

/**
 * OpenRouter's clients look a generation up with the `id` of the answer they got (`completion.id`), not
 * with the `x-generation-id` header: every answer's body id finds its record, and only its project's.
 */
let gateway: TestGateway;
let openai: FakeUpstream;
let anthropic: FakeUpstream;
let key: string;
let otherKey: string;

beforeAll(async () => {
  openai = await startFakeOpenAiUpstream();
  anthropic = await startFakeOpenAiUpstream();
  gateway = await startTestGateway();
  for (const projectId of ['answers', 'neighbour']) {
    await gateway.admin({ command: 'project.create', projectId });
    await gateway.admin({ command: 'provider.set', projectId, provider: 'openai', apiKey: 'sk-openai-upstream-0123456789', baseUrl: openai.baseUrl });
    await gateway.admin({ command: 'provider.set', projectId, provider: 'anthropic', apiKey: 'sk-ant-upstream-0123456789', baseUrl: anthropic.baseUrl });
    // A provider of chat completions only: a Responses request reaches it translated.
    await gateway.admin({ command: 'provider.set', projectId, provider: 'vllm', protocol: 'openai', apiKey: 'local-vllm-key', baseUrl: openai.baseUrl });
    await gateway.admin({ command: 'model.allow', projectId, slug: 'openai/gpt-4o-mini', inputMicrosPer1k: 150, outputMicrosPer1k: 600 });
    await gateway.admin({ command: 'model.allow', projectId, slug: 'vllm/qwen3-8b' });
    await gateway.admin({ command: 'model.allow', projectId, slug: 'anthropic/claude-haiku-4-5', inputMicrosPer1k: 1000, outputMicrosPer1k: 5000 });
  }
  key = (await gateway.admin<{ key: string }>({ command: 'key.create', projectId: 'answers' })).key;
  otherKey = (await gateway.admin<{ key: string }>({ command: 'key.create', projectId: 'neighbour' })).key;
  const responses = recordedResponsesAnswer();
  openai.answerWith((request, response) => {
    if (request.path.startsWith('/v1/responses')) return responses(request, response);
    return request.body.stream === true
      ? sendSse(response, sseEvents(readFixture('openai-chat/chat-stream-text-include-usage.sse')))
      : sendJson(response, 200, readFixture('openai-chat/chat-nonstream-cached-tokens.json'));
  });
  anthropic.answerWith(recordedAnthropicAnswer());
});

afterAll(async () => {
  await gateway.close();
  await openai.close();
  await anthropic.close();
});

const messages = [{ role: 'user', content: 'hi' }];

/** Sends a request with its own X-Request-ID; returns the `id` of the answer's body (the first event's for a stream). */
async function answerIdOf(path: string, body: Record<string, unknown>, requestId: string, apiKey = key): Promise<string> {
  const response = await fetch(`${gateway.url}${path}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json', 'x-request-id': requestId },
    body: JSON.stringify(body),
  });
  expect(response.status).toBe(200);
  expect(response.headers.get('x-generation-id')).toBe(requestId);
  const text = await response.text();
  if (body.stream !== true) return (JSON.parse(text) as { id: string }).id;
  const first = text.split('\n').find((line) => line.startsWith('data: {'));
  const event = JSON.parse(first?.slice('data: '.length) ?? '{}') as { id?: string; message?: { id: string }; response?: { id: string } };
  return event.id ?? event.message?.id ?? event.response?.id ?? '';
}

async function lookup(id: string, apiKey = key) {
  const response = await fetch(`${gateway.url}/v1/generation?id=${encodeURIComponent(id)}`, { headers: { authorization: `Bearer ${apiKey}` } });
  return { status: response.status, body: (await response.json()) as { id?: string; upstream_id?: string | null; error?: { code: string; message: string } } };
}

/**
 * Polls as a client would until the id finds the record of `requestId`, then returns it. A recorded answer
 * replayed to several requests carries one id: until the latest request's record is written, the id finds
 * an earlier one.
 */
async function generationOf(id: string, requestId: string, apiKey = key) {
  await expect.poll(async () => (await lookup(id, apiKey)).body.id, { timeout: 5_000, interval: 50 }).toBe(requestId);
  return (await lookup(id, apiKey)).body;
}

describe('GET /v1/generation by the id of the answer', () => {
  it('finds a native chat completion by its chatcmpl id, as by its request id', async () => {
    const answerId = await answerIdOf('/v1/chat/completions', { model: 'openai/gpt-4o-mini', messages }, 'answer-chat-1');
    expect(answerId).toMatch(/^chatcmpl-/);

    const byAnswer = await generationOf(answerId, 'answer-chat-1');
    expect(byAnswer.upstream_id).toBe(answerId);
    expect((await lookup('answer-chat-1')).body).toEqual(byAnswer);
  });

  it("finds a native chat stream by its chunks' id", async () => {
    const answerId = await answerIdOf('/v1/chat/completions', { model: 'openai/gpt-4o-mini', messages, stream: true }, 'answer-chat-stream');
    expect(answerId).toMatch(/^chatcmpl-/);

    await generationOf(answerId, 'answer-chat-stream');
  });

  it('finds a chat completion translated from an Anthropic model by the id it carries', async () => {
    const answerId = await answerIdOf('/v1/chat/completions', { model: 'anthropic/claude-haiku-4-5', messages }, 'answer-chat-claude');

    await generationOf(answerId, 'answer-chat-claude');
  });

  it('finds a native message by its msg id, streamed or not', async () => {
    const ask = { model: 'anthropic/claude-haiku-4-5', max_tokens: 64, messages };
    const whole = await answerIdOf('/v1/messages', ask, 'answer-message');
    await generationOf(whole, 'answer-message');

    const streamed = await answerIdOf('/v1/messages', { ...ask, stream: true }, 'answer-message-stream');
    expect(streamed).toMatch(/^msg_/);
    await generationOf(streamed, 'answer-message-stream');
  });

  it("finds a message translated from an OpenAI model by the gateway's msg id", async () => {
    const answerId = await answerIdOf('/v1/messages', { model: 'openai/gpt-4o-mini', max_tokens: 64, messages }, 'answer-message-gpt');
    expect(answerId).toBe('msg_answermessagegpt');

    await generationOf(answerId, 'answer-message-gpt');
  });

  it('finds a native response by its resp id, streamed or not', async () => {
    const whole = await answerIdOf('/v1/responses', { model: 'openai/gpt-4o-mini', input: 'hi' }, 'answer-response');
    expect(whole).toMatch(/^resp_/);
    await generationOf(whole, 'answer-response');

    const streamed = await answerIdOf('/v1/responses', { model: 'openai/gpt-4o-mini', input: 'hi', stream: true }, 'answer-response-stream');
    await generationOf(streamed, 'answer-response-stream');
  });

  it("finds a response translated from a chat-only provider by the gateway's resp id, streamed or not", async () => {
    const whole = await answerIdOf('/v1/responses', { model: 'vllm/qwen3-8b', input: 'hi' }, 'answer-translated-response');
    expect(whole).toBe('resp_answertranslatedresponse');
    await generationOf(whole, 'answer-translated-response');

    const streamed = await answerIdOf('/v1/responses', { model: 'vllm/qwen3-8b', input: 'hi', stream: true }, 'answer-translated-stream');
    expect(streamed).toBe('resp_answertranslatedstream');
    await generationOf(streamed, 'answer-translated-stream');
  });

  it("never shows another project's generation by its answer id: that project finds its own", async () => {
    const answerId = await answerIdOf('/v1/messages', { model: 'openai/gpt-4o-mini', max_tokens: 64, messages }, 'answer-private');
    await generationOf(answerId, 'answer-private');

    const stranger = await lookup(answerId, otherKey);
    expect(stranger.status).toBe(404);
    expect(stranger.body.error?.code).toBe('generation_not_found');

    // One upstream id answered to both projects (the recorded completion): each finds its own record by it.
    const ownChat = await answerIdOf('/v1/chat/completions', { model: 'openai/gpt-4o-mini', messages }, 'own-chat');
    const neighbourChat = await answerIdOf('/v1/chat/completions', { model: 'openai/gpt-4o-mini', messages }, 'neighbour-chat', otherKey);
    expect(neighbourChat).toBe(ownChat);
    await generationOf(neighbourChat, 'neighbour-chat', otherKey);
    await generationOf(ownChat, 'own-chat');
  });

  it('answers an id no record carries (yet) with the 404 that says to retry', async () => {
    const missing = await lookup('chatcmpl-not-written-yet');

    expect(missing.status).toBe(404);
    expect(missing.body.error?.code).toBe('generation_not_found');
    expect(missing.body.error?.message).toContain('not found yet');
  });
});
