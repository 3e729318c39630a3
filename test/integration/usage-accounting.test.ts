import Anthropic from '@anthropic-ai/sdk';
import type { ServerResponse } from 'node:http';
import type OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recordedAnthropicAnswer } from '../support/fake-anthropic-upstream.ts';
import { sendJson, sendSse, sseEvents, startFakeOpenAiUpstream, type FakeUpstream, type ReceivedRequest } from '../support/fake-openai-upstream.ts';
import { recordedResponsesAnswer } from '../support/fake-responses-upstream.ts';
import { readFixture } from '../support/fixtures.ts';
import { startTestGateway, type TestGateway } from '../support/test-gateway.ts';

/** OpenRouter's usage-accounting switch, sent by OpenRouter clients. */
const INCLUDE_USAGE = { usage: { include: true } };

let gateway: TestGateway;
let openai: FakeUpstream;
let anthropic: FakeUpstream;
let key: string;

beforeAll(async () => {
  openai = await startFakeOpenAiUpstream();
  anthropic = await startFakeOpenAiUpstream();
  gateway = await startTestGateway();
  // Usage-cost injection stays off for the project: only the request asks for the cost.
  await gateway.admin({ command: 'project.create', projectId: 'accounting' });
  await gateway.admin({ command: 'provider.set', projectId: 'accounting', provider: 'openai', apiKey: 'sk-openai-upstream-0123456789', baseUrl: openai.baseUrl });
  await gateway.admin({ command: 'provider.set', projectId: 'accounting', provider: 'anthropic', apiKey: 'sk-ant-upstream-0123456789', baseUrl: anthropic.baseUrl });
  await gateway.admin({ command: 'model.allow', projectId: 'accounting', slug: 'openai/gpt-4o-mini', inputMicrosPer1k: 150, outputMicrosPer1k: 600 });
  await gateway.admin({ command: 'model.allow', projectId: 'accounting', slug: 'openai/gpt-5.5', inputMicrosPer1k: 1250, outputMicrosPer1k: 10_000 });
  await gateway.admin({ command: 'model.allow', projectId: 'accounting', slug: 'anthropic/claude-haiku-4-5', inputMicrosPer1k: 1000, outputMicrosPer1k: 5000 });
  key = (await gateway.admin<{ key: string }>({ command: 'key.create', projectId: 'accounting' })).key;
});

afterAll(async () => {
  await gateway.close();
  await openai.close();
  await anthropic.close();
});

/**
 * OpenAI refuses a parameter it does not know with a 400 (the recorded shape of
 * other/openai-images-gpt-image-response-format-error.json); otherwise `answer` answers.
 */
function refusingUsage(answer: (request: ReceivedRequest, response: ServerResponse) => void | Promise<void>) {
  return (request: ReceivedRequest, response: ServerResponse) => {
    if ('usage' in request.body) {
      return sendJson(response, 400, { error: { message: "Unknown parameter: 'usage'.", type: 'invalid_request_error', param: 'usage', code: 'unknown_parameter' } });
    }
    return answer(request, response);
  };
}

const post = (path: string, body: unknown) =>
  fetch(`${gateway.url}${path}`, { method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body: JSON.stringify(body) });

const chat = { model: 'openai/gpt-4o-mini', messages: [{ role: 'user' as const, content: 'hi' }] };

describe('usage: {include: true} on /v1/chat/completions', () => {
  it('is not sent upstream, and the answer carries usage.cost though the project does not inject it', async () => {
    openai.answerWith(refusingUsage((_request, response) => sendJson(response, 200, readFixture('openai-chat/chat-nonstream-text-usage-details.json'))));
    const completion = (await gateway.openai(key).chat.completions.create({ ...chat, ...INCLUDE_USAGE } as OpenAI.ChatCompletionCreateParamsNonStreaming)) as OpenAI.ChatCompletion & {
      usage: OpenAI.CompletionUsage & { cost: number };
    };
    expect(openai.received.at(-1)?.body).not.toHaveProperty('usage');
    expect(completion.usage.cost).toBe((completion.usage.prompt_tokens * 150 + completion.usage.completion_tokens * 600) / 1e9);
  });

  it('ends a stream with a usage chunk carrying the cost, though the client did not ask for stream usage', async () => {
    openai.answerWith(refusingUsage((_request, response) => sendSse(response, sseEvents(readFixture('openai-chat/chat-stream-tool-calls-include-usage.sse')))));
    const stream = await gateway.openai(key).chat.completions.create({ ...chat, stream: true, ...INCLUDE_USAGE } as OpenAI.ChatCompletionCreateParamsStreaming);
    let usage: (OpenAI.CompletionUsage & { cost?: number }) | undefined;
    for await (const chunk of stream) usage = chunk.usage ?? usage;
    expect(usage?.cost).toBe(((usage?.prompt_tokens ?? 0) * 150 + (usage?.completion_tokens ?? 0) * 600) / 1e9);
  });

  it("keeps the project's setting with include: false: no cost, and nothing sent upstream", async () => {
    openai.answerWith(refusingUsage((_request, response) => sendJson(response, 200, readFixture('openai-chat/chat-nonstream-text-usage-details.json'))));
    const response = await post('/v1/chat/completions', { ...chat, usage: { include: false } });
    expect(response.status).toBe(200);
    expect(((await response.json()) as { usage: Record<string, unknown> }).usage).not.toHaveProperty('cost');
  });

  it('refuses a usage field that is not {include: boolean} with a 400 in the OpenAI format naming it', async () => {
    for (const [usage, param] of [[true, 'usage'], [{ include: 'yes' }, 'usage.include']] as const) {
      const response = await post('/v1/chat/completions', { ...chat, usage });
      expect(response.status).toBe(400);
      expect(await response.json()).toMatchObject({ error: { type: 'invalid_request_error', param, message: expect.stringContaining(`"${param}"`) } });
    }
  });
});

describe('usage: {include: true} on the other text endpoints', () => {
  it('/v1/completions: not sent upstream, usage.cost in the answer', async () => {
    openai.answerWith(refusingUsage((_request, response) => sendJson(response, 200, readFixture('other/openai-completion-text.json'))));
    const response = await post('/v1/completions', { model: 'openai/gpt-4o-mini', prompt: 'Say hi', ...INCLUDE_USAGE });
    expect(response.status).toBe(200);
    expect(openai.received.at(-1)?.body).not.toHaveProperty('usage');
    expect(((await response.json()) as { usage: { cost: number } }).usage.cost).toBe((14 * 150 + 16 * 600) / 1e9);
  });

  it('/v1/responses: not sent upstream, usage.cost in the response', async () => {
    openai.answerWith(refusingUsage(recordedResponsesAnswer()));
    const response = (await gateway.openai(key).responses.create({ model: 'openai/gpt-5.5', input: 'x', ...INCLUDE_USAGE } as OpenAI.Responses.ResponseCreateParamsNonStreaming)) as OpenAI.Responses.Response & { usage: { cost: number } };
    expect(openai.received.at(-1)?.body).not.toHaveProperty('usage');
    expect(response.usage.cost).toBe((11 * 1250 + 5 * 10_000) / 1e9);
  });

  it('/v1/messages: not sent upstream, usage.cost in the message and in the final message_delta of a stream', async () => {
    anthropic.answerWith(refusingUsage(recordedAnthropicAnswer()));
    const client = new Anthropic({ authToken: key, apiKey: null, baseURL: gateway.url, maxRetries: 0 });
    const ask = { model: 'anthropic/claude-haiku-4-5', max_tokens: 64, messages: [{ role: 'user' as const, content: 'Hello' }], ...INCLUDE_USAGE };

    const message = await client.messages.create(ask as Anthropic.MessageCreateParamsNonStreaming);
    expect(anthropic.received.at(-1)?.body).not.toHaveProperty('usage');
    const usage = message.usage as unknown as { input_tokens: number; output_tokens: number; cost: number };
    expect(usage.cost).toBe((usage.input_tokens * 1000 + usage.output_tokens * 5000) / 1e9);

    const stream = client.messages.stream(ask as Anthropic.MessageStreamParams);
    let cost: number | undefined;
    stream.on('streamEvent', (event) => {
      if (event.type === 'message_delta') cost = (event.usage as unknown as { cost?: number }).cost;
    });
    await stream.finalMessage();
    expect(anthropic.received.at(-1)?.body).not.toHaveProperty('usage');
    expect(cost).toBe((10 * 1000 + 4 * 5000) / 1e9);
  });

  it('/v1/messages refuses a malformed usage field with a 400 in the Anthropic format', async () => {
    const response = await post('/v1/messages', { model: 'anthropic/claude-haiku-4-5', max_tokens: 16, messages: [{ role: 'user', content: 'hi' }], usage: 'include' });
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ type: 'error', error: { type: 'invalid_request_error', message: expect.stringContaining('"usage"') } });
  });
});
