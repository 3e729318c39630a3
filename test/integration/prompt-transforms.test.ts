import type { ServerResponse } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recordedAnthropicAnswer } from '../support/fake-anthropic-upstream.ts';
import { sendJson, sendSse, sseEvents, startFakeOpenAiUpstream, type FakeUpstream, type ReceivedRequest } from '../support/fake-openai-upstream.ts';
import { recordedResponsesAnswer } from '../support/fake-responses-upstream.ts';
import { readFixture } from '../support/fixtures.ts';
import { startTestGateway, type TestGateway } from '../support/test-gateway.ts';

/** OpenRouter's prompt transforms, as OpenRouter clients send them. */
const MIDDLE_OUT = { transforms: ['middle-out'] };

let gateway: TestGateway;
let openai: FakeUpstream;
let anthropic: FakeUpstream;
let key: string;

/** OpenAI's answer to a parameter it does not know (Anthropic refuses extra fields with a 400 too). */
function refusingTransforms(answer: (request: ReceivedRequest, response: ServerResponse) => void | Promise<void>) {
  return (request: ReceivedRequest, response: ServerResponse) => {
    if ('transforms' in request.body) {
      return sendJson(response, 400, { error: { message: 'Unrecognized request argument supplied: transforms', type: 'invalid_request_error', param: null, code: null } });
    }
    return answer(request, response);
  };
}

beforeAll(async () => {
  openai = await startFakeOpenAiUpstream();
  anthropic = await startFakeOpenAiUpstream();
  gateway = await startTestGateway();
  const projectId = 'transforming';
  await gateway.admin({ command: 'project.create', projectId });
  await gateway.admin({ command: 'provider.set', projectId, provider: 'openai', apiKey: 'sk-openai-upstream-0123456789', baseUrl: openai.baseUrl });
  await gateway.admin({ command: 'provider.set', projectId, provider: 'anthropic', apiKey: 'sk-ant-upstream-0123456789', baseUrl: anthropic.baseUrl });
  await gateway.admin({ command: 'model.allow', projectId, slug: 'openai/gpt-4o-mini', inputMicrosPer1k: 150, outputMicrosPer1k: 600 });
  await gateway.admin({ command: 'model.allow', projectId, slug: 'anthropic/claude-haiku-4-5', inputMicrosPer1k: 1000, outputMicrosPer1k: 5000 });
  key = (await gateway.admin<{ key: string }>({ command: 'key.create', projectId })).key;
  const responses = recordedResponsesAnswer();
  openai.answerWith(
    refusingTransforms((request, response) => {
      if (request.path.startsWith('/v1/responses')) return responses(request, response);
      return request.body.stream === true
        ? sendSse(response, sseEvents(readFixture('openai-chat/chat-stream-text-include-usage.sse')))
        : sendJson(response, 200, readFixture('openai-chat/chat-nonstream-text-usage-details.json'));
    }),
  );
  anthropic.answerWith(refusingTransforms(recordedAnthropicAnswer()));
});

afterAll(async () => {
  await gateway.close();
  await openai.close();
  await anthropic.close();
});

const post = (path: string, body: unknown) =>
  fetch(`${gateway.url}${path}`, { method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body: JSON.stringify(body) });

const messages = [{ role: 'user', content: 'hi' }];

describe("OpenRouter's transforms", () => {
  it.each([
    ['a chat completion', '/v1/chat/completions', { model: 'openai/gpt-4o-mini', messages }],
    ['a chat stream', '/v1/chat/completions', { model: 'openai/gpt-4o-mini', messages, stream: true }],
    ['a native message', '/v1/messages', { model: 'anthropic/claude-haiku-4-5', max_tokens: 64, messages }],
    ['a message translated for an OpenAI model', '/v1/messages', { model: 'openai/gpt-4o-mini', max_tokens: 64, messages }],
    ['a response', '/v1/responses', { model: 'openai/gpt-4o-mini', input: 'hi' }],
    ['a response translated for an Anthropic model', '/v1/responses', { model: 'anthropic/claude-haiku-4-5', input: 'hi' }],
  ])('are accepted on %s, never sent upstream, and named as not applied', async (_kind, path, body) => {
    const response = await post(path, { ...body, ...MIDDLE_OUT });

    expect(response.status).toBe(200);
    expect(response.headers.get('x-gateway-dropped-fields')).toBe('transforms');
    await response.text();
  });

  it('are named as nothing when the list is empty', async () => {
    const response = await post('/v1/chat/completions', { model: 'openai/gpt-4o-mini', messages, transforms: [] });

    expect(response.status).toBe(200);
    expect(response.headers.get('x-gateway-dropped-fields')).toBeNull();
  });

  it('that are not a list of names are a 400 in the protocol of the route, naming the field', async () => {
    const chat = await post('/v1/chat/completions', { model: 'openai/gpt-4o-mini', messages, transforms: 'middle-out' });
    expect(chat.status).toBe(400);
    expect(await chat.json()).toMatchObject({ error: { type: 'invalid_request_error', param: 'transforms' } });

    const message = await post('/v1/messages', { model: 'anthropic/claude-haiku-4-5', max_tokens: 64, messages, transforms: 'middle-out' });
    expect(message.status).toBe(400);
    expect(await message.json()).toMatchObject({ type: 'error', error: { type: 'invalid_request_error' } });
  });
});
