import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHAT_BODIES, MESSAGES_BODIES } from '../support/client-request-shapes.ts';
import { refusingAsProvider, startFakeOpenAiUpstream, type FakeUpstream } from '../support/fake-openai-upstream.ts';
import { recordedResponsesAnswer } from '../support/fake-responses-upstream.ts';
import { refusalOfOpenAiResponses } from '../support/openai-refusals.ts';
import { startTestGateway, type TestGateway } from '../support/test-gateway.ts';

/**
 * The request shapes chat and Anthropic clients send (test/support/client-request-shapes.ts), translated for
 * models only OpenAI's Responses API serves (`model allow … --upstream-api responses`), against an upstream
 * that refuses what that API refuses (test/support/openai-refusals.ts): each must be taken.
 */
let gateway: TestGateway;
let openai: FakeUpstream;
let key: string;

const MODELS = ['gpt-5-pro', 'gpt-4.1'];

beforeAll(async () => {
  openai = await startFakeOpenAiUpstream();
  openai.answerWith(refusingAsProvider(refusalOfOpenAiResponses, recordedResponsesAnswer()));
  gateway = await startTestGateway();
  await gateway.admin({ command: 'project.create', projectId: 'responses-only' });
  await gateway.admin({ command: 'provider.set', projectId: 'responses-only', provider: 'openai', apiKey: 'sk-openai-upstream-0123456789', baseUrl: openai.baseUrl });
  for (const model of MODELS) await gateway.admin({ command: 'model.allow', projectId: 'responses-only', slug: `openai/${model}`, upstreamApi: 'responses' });
  key = (await gateway.admin<{ key: string }>({ command: 'key.create', projectId: 'responses-only' })).key;
}, 120_000);

afterAll(async () => {
  await gateway?.close();
  await openai?.close();
});

async function post(path: string, headers: Record<string, string>, body: Record<string, unknown>) {
  return fetch(`${gateway.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });
}

describe('chat completions translated for a Responses-only model, against an upstream that refuses what the Responses API refuses', () => {
  for (const model of MODELS) {
    it.each(CHAT_BODIES)(`takes %s on ${model}`, async (_what, body) => {
      const response = await post('/v1/chat/completions', { authorization: `Bearer ${key}` }, { model: `openai/${model}`, ...body });
      expect(response.status, await response.clone().text()).toBe(200);
      await response.text();
    });
  }
});

describe('Messages translated for a Responses-only model, against an upstream that refuses what the Responses API refuses', () => {
  for (const model of MODELS) {
    it.each(MESSAGES_BODIES)(`takes %s on ${model}`, async (_what, body) => {
      const response = await post('/v1/messages', { 'x-api-key': key, 'anthropic-version': '2023-06-01' }, { model: `openai/${model}`, max_tokens: 1024, ...body });
      expect(response.status, await response.clone().text()).toBe(200);
      await response.text();
    });
  }
});
