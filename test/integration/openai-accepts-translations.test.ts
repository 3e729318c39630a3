import Anthropic from '@anthropic-ai/sdk';
import { zodOutputFormat } from '@anthropic-ai/sdk/helpers/zod';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as z from 'zod';
import { refusingAsProvider, sendJson, sendSse, sseEvents, startFakeOpenAiUpstream, type FakeUpstream } from '../support/fake-openai-upstream.ts';
import { recordedResponsesAnswer } from '../support/fake-responses-upstream.ts';
import { readFixture } from '../support/fixtures.ts';
import { REASONING_DEPLOYMENT, refusalOfOpenAi, refusalOfOpenAiResponses } from '../support/openai-refusals.ts';
import { MESSAGES_BODIES, RESPONSES_BODIES } from '../support/client-request-shapes.ts';
import { startTestGateway, type TestGateway } from '../support/test-gateway.ts';

/**
 * Requests Anthropic's clients really send (the Anthropic SDK's shapes, Claude Code's), translated for
 * OpenAI's models, reasoning (through its Responses API) and not, against an upstream that refuses what
 * OpenAI refuses (test/support/openai-refusals.ts): each must be taken.
 */
let gateway: TestGateway;
let openai: FakeUpstream;
let key: string;

const MODELS = ['gpt-4o-mini', 'gpt-4.1', 'o3', 'gpt-5', REASONING_DEPLOYMENT];

beforeAll(async () => {
  openai = await startFakeOpenAiUpstream();
  const answerChat = refusingAsProvider(refusalOfOpenAi, (request, response) =>
    request.body.stream === true
      ? sendSse(response, sseEvents(readFixture('openai-chat/chat-stream-text-include-usage.sse')))
      : sendJson(response, 200, JSON.parse(readFixture('openai-chat/chat-nonstream-text-usage-details.json'))),
  );
  // OpenAI's reasoning models are reached through its Responses API (bridge.ts, translationTarget).
  const answerResponses = refusingAsProvider(refusalOfOpenAiResponses, recordedResponsesAnswer());
  openai.answerWith((request, response) => (request.path === '/v1/responses' ? answerResponses(request, response) : answerChat(request, response)));
  gateway = await startTestGateway();
  await gateway.admin({ command: 'project.create', projectId: 'strict-openai' });
  await gateway.admin({ command: 'provider.set', projectId: 'strict-openai', provider: 'openai', apiKey: 'sk-openai-upstream-0123456789', baseUrl: openai.baseUrl });
  for (const model of MODELS) await gateway.admin({ command: 'model.allow', projectId: 'strict-openai', slug: `openai/${model}`, inputMicrosPer1k: 1000, outputMicrosPer1k: 4000 });
  // A deployment whose name hides its reasoning model, as on Azure: the admin marks it.
  await gateway.admin({ command: 'model.allow', projectId: 'strict-openai', slug: `openai/${REASONING_DEPLOYMENT}`, reasoning: 'yes' });
  // A chat-only server (no Responses API): Codex and other Responses clients reach it through translation. The
  // model reasons, which its id does not tell the gateway: the admin marks it.
  await gateway.admin({ command: 'provider.set', projectId: 'strict-openai', provider: 'groq', apiKey: 'gsk-upstream-0123456789', baseUrl: openai.baseUrl });
  await gateway.admin({ command: 'model.allow', projectId: 'strict-openai', slug: 'groq/openai/gpt-oss-120b', reasoning: 'yes' });
  key = (await gateway.admin<{ key: string }>({ command: 'key.create', projectId: 'strict-openai' })).key;
}, 120_000);

afterAll(async () => {
  await gateway?.close();
  await openai?.close();
});

describe('Messages translated for OpenAI, against an upstream that refuses what OpenAI refuses', () => {
  for (const model of MODELS) {
    it.each(MESSAGES_BODIES)(`takes %s on ${model}`, async (_what, body) => {
      const response = await fetch(`${gateway.url}/v1/messages`, {
        method: 'POST',
        headers: { 'x-api-key': key, 'anthropic-version': '2023-06-01', 'content-type': 'application/json' },
        body: JSON.stringify({ model: `openai/${model}`, max_tokens: 1024, ...body }),
      });
      expect(response.status, await response.clone().text()).toBe(200);
      if (body.stream === true) expect(await response.text()).toContain('event: message_stop');
      else expect(((await response.json()) as { type: string }).type).toBe('message');
    });
  }
});

describe('a deployment the admin marked as a reasoning model', () => {
  it("gets Claude Code's thinking as the effort, through OpenAI's Responses API, and no sampling parameters, as a reasoning model whose id tells it", async () => {
    openai.received.length = 0;
    const response = await fetch(`${gateway.url}/v1/messages`, {
      method: 'POST',
      headers: { 'x-api-key': key, 'anthropic-version': '2023-06-01', 'content-type': 'application/json' },
      body: JSON.stringify({ model: `openai/${REASONING_DEPLOYMENT}`, max_tokens: 32_000, temperature: 1, thinking: { type: 'enabled', budget_tokens: 10_000 }, messages: [{ role: 'user', content: 'Plan' }] }),
    });

    expect(response.status).toBe(200);
    expect(response.headers.get('x-gateway-dropped-fields')).toBe('temperature');
    expect(openai.received.at(-1)?.path).toBe('/v1/responses');
    const sent = openai.received.at(-1)?.body;
    expect(sent).toMatchObject({ model: REASONING_DEPLOYMENT, reasoning: { effort: 'high' }, max_output_tokens: 32_000 });
    expect(sent).not.toHaveProperty('temperature');
  });
});

describe('Responses translated for a chat-only server, against an upstream that refuses what OpenAI refuses', () => {
  it.each(RESPONSES_BODIES)('takes %s on groq/openai/gpt-oss-120b', async (_what, body) => {
    const response = await fetch(`${gateway.url}/v1/responses`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'groq/openai/gpt-oss-120b', ...body }),
    });
    expect(response.status, await response.clone().text()).toBe(200);
    if (body.stream === true) expect(await response.text()).toContain('event: response.completed');
    else expect(((await response.json()) as { object: string }).object).toBe('response');
  });
});

describe("Anthropic's structured-output helper on an OpenAI model", () => {
  it('parses a message from gpt-4.1 with a zod schema: the schema reaches OpenAI as a json_schema response_format', async () => {
    openai.received.length = 0;
    openai.answerWith(
      refusingAsProvider(refusalOfOpenAi, (_request, response) => {
        const recorded = JSON.parse(readFixture('openai-chat/chat-nonstream-text-usage-details.json')) as { choices: Array<{ message: { content: string } }> };
        const [choice] = recorded.choices;
        if (choice) choice.message.content = '{"name":"Paris","population":2100000}';
        sendJson(response, 200, recorded);
      }),
    );
    const client = new Anthropic({ apiKey: key, baseURL: gateway.url, maxRetries: 0 });
    const message = await client.messages.parse({
      model: 'openai/gpt-4.1',
      max_tokens: 1024,
      messages: [{ role: 'user', content: 'Name a city' }],
      output_config: { format: zodOutputFormat(z.object({ name: z.string(), population: z.number().int() })) },
    });

    expect(message.parsed_output).toEqual({ name: 'Paris', population: 2_100_000 });
    expect(openai.received.at(-1)?.body.response_format).toMatchObject({ type: 'json_schema', json_schema: { name: 'response', schema: { type: 'object' } } });
  });
});
