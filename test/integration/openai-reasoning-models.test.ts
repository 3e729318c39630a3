import Anthropic from '@anthropic-ai/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { refusingAsProvider, sendJson, sendSse, sseEvents, startFakeOpenAiUpstream, type FakeUpstream } from '../support/fake-openai-upstream.ts';
import { recordedResponsesAnswer } from '../support/fake-responses-upstream.ts';
import { readFixture } from '../support/fixtures.ts';
import { generationOf } from '../support/generation-lookup.ts';
import { refusalOfOpenAiResponses } from '../support/openai-refusals.ts';
import { createProjectWithKey, startTestGateway, type TestGateway } from '../support/test-gateway.ts';

/**
 * OpenAI's models through the gateway from Claude Code (the Anthropic SDK, translated) and from OpenAI SDK
 * clients used to OpenRouter (native). The fake upstream refuses `max_tokens` for a reasoning model as OpenAI
 * does (its recorded 400), so a request that would fail against OpenAI fails here too; a reasoning model's
 * translation goes to its Responses API, which refuses what that API refuses.
 */
let gateway: TestGateway;
let openai: FakeUpstream;
let key: string;

beforeAll(async () => {
  openai = await startFakeOpenAiUpstream();
  const answerResponses = refusingAsProvider(refusalOfOpenAiResponses, recordedResponsesAnswer());
  openai.answerWith((request, response) => {
    // A reasoning model's translation goes to OpenAI's Responses API (bridge.ts, translationTarget).
    if (request.path === '/v1/responses') return answerResponses(request, response);
    if (request.body.model === 'o3-mini' && request.body.max_tokens !== undefined) {
      sendJson(response, 400, JSON.parse(readFixture('openai-chat/chat-error-400-unsupported-parameter.json')));
      return;
    }
    if (request.body.model === 'gpt-4o-mini' && Number(request.body.max_completion_tokens) > 16_384) {
      const message = `max_tokens is too large: ${String(request.body.max_completion_tokens)}. This model supports at most 16384 completion tokens, whereas you provided ${String(request.body.max_completion_tokens)}.`;
      sendJson(response, 400, { error: { message, type: 'invalid_request_error', param: 'max_tokens', code: 'invalid_value' } });
      return;
    }
    const user = request.body.user;
    if (typeof user === 'string' && user.length > 64) {
      // OpenAI's words for a field over its length (as for tool call ids and function names).
      const message = `Invalid 'user': string too long. Expected a string with maximum length 64, but got a string with length ${user.length} instead.`;
      sendJson(response, 400, { error: { message, type: 'invalid_request_error', param: 'user', code: 'string_above_max_length' } });
      return;
    }
    if (request.body.stream === true) void sendSse(response, sseEvents(readFixture('openai-chat/chat-stream-text-include-usage.sse')));
    else sendJson(response, 200, JSON.parse(readFixture('openai-chat/chat-nonstream-reasoning-tokens.json')));
  });
  gateway = await startTestGateway();
  key = await createProjectWithKey(gateway, {
    projectId: 'claude-code-on-openai',
    provider: 'openai',
    apiKey: 'sk-openai-upstream-0123456789',
    baseUrl: openai.baseUrl,
    models: [
      { slug: 'openai/o3-mini', inputMicrosPer1k: 1100, outputMicrosPer1k: 4400 },
      { slug: 'openai/gpt-4o-mini', inputMicrosPer1k: 150, outputMicrosPer1k: 600 },
    ],
  });
});

afterAll(async () => {
  await gateway.close();
  await openai.close();
});

/** Older Anthropic SDKs and Claude Code versions send `temperature: 1` with thinking; this SDK has no such field. */
const samplingOfOlderClients = { temperature: 1 };

const client = () => new Anthropic({ authToken: key, apiKey: null, baseURL: gateway.url, maxRetries: 0 });

/** Claude Code 2.1.330's request fields beyond the conversation, as it sent them (ids of the same shape). */
const claudeCodeUserId = JSON.stringify({ device_id: 'd'.repeat(64), account_uuid: '', session_id: '28a25211-831b-4fe3-b592-b699babb2b59' });
const claudeCodeFields = {
  thinking: { type: 'adaptive', display: 'omitted' },
  output_config: { effort: 'high' },
  context_management: { edits: [{ type: 'clear_thinking_20251015', keep: 'all' }] },
  metadata: { user_id: claudeCodeUserId },
};

describe('/v1/messages from Claude Code on an OpenAI reasoning model', () => {
  it("answers its request as Claude Code sends it, through OpenAI's Responses API: the effort as reasoning.effort, its long user id hashed, the record keeping it", async () => {
    openai.received.length = 0;
    const claudeCode = new Anthropic({ authToken: key, apiKey: null, baseURL: gateway.url, maxRetries: 0, defaultHeaders: { 'x-request-id': 'claude-code-turn' } });
    const stream = claudeCode.messages.stream({ model: 'o3-mini', max_tokens: 16000, messages: [{ role: 'user', content: 'Hello' }], ...claudeCodeFields } as Anthropic.MessageStreamParams);
    const message = await stream.finalMessage();

    expect(message).toMatchObject({ stop_reason: 'end_turn', content: [{ type: 'text', text: expect.stringMatching(/\S/) }] });
    expect(openai.received[0]?.path).toBe('/v1/responses');
    const sent = openai.received[0]?.body;
    expect(sent).toMatchObject({ model: 'o3-mini', stream: true, max_output_tokens: 16000, reasoning: { effort: 'high' }, safety_identifier: expect.stringMatching(/^[0-9a-f]{64}$/) });
    const { response } = await stream.withResponse();
    expect(response.headers.get('x-gateway-dropped-fields')).toBe('context_management');
    expect(((await generationOf(gateway, key, 'claude-code-turn')) as unknown as { external_user: unknown }).external_user).toBe(claudeCodeUserId);
  });
});

describe('/v1/messages with thinking on an OpenAI reasoning model', () => {
  it("answers through OpenAI's Responses API, with the thinking budget sent as the effort and no temperature", async () => {
    openai.received.length = 0;
    const { data: message, response } = await client()
      .messages.create({
        model: 'o3-mini',
        max_tokens: 16000,
        ...samplingOfOlderClients,
        thinking: { type: 'enabled', budget_tokens: 10000 },
        messages: [{ role: 'user', content: 'Hello' }],
      })
      .withResponse();

    expect(message).toMatchObject({ type: 'message', stop_reason: 'end_turn', content: [{ type: 'text', text: 'pong' }] });
    const sent = openai.received[0]?.body;
    expect(sent).toMatchObject({ model: 'o3-mini', max_output_tokens: 16000, reasoning: { effort: 'high' } });
    expect(sent).not.toHaveProperty('temperature');
    expect(response.headers.get('x-gateway-dropped-fields')).toBe('temperature');
  });
});

describe("/v1/messages asking more of a model than its largest answer", () => {
  it("answers Claude Code's 32,000-token cap on gpt-4o-mini, sent as the model's 16,384 from the known limits", async () => {
    openai.received.length = 0;
    const message = await client().messages.stream({ model: 'gpt-4o-mini', max_tokens: 32000, messages: [{ role: 'user', content: 'Hello' }] }).finalMessage();

    expect(message.stop_reason).toBe('end_turn');
    expect(openai.received[0]?.body).toMatchObject({ model: 'gpt-4o-mini', max_completion_tokens: 16_384 });
  });
});

describe('/v1/messages with thinking on an OpenAI model that does not reason', () => {
  it('answers without reasoning_effort, which the model would refuse, and names thinking as dropped', async () => {
    openai.received.length = 0;
    const { data: message, response } = await client()
      .messages.create({ model: 'gpt-4o-mini', max_tokens: 2048, thinking: { type: 'enabled', budget_tokens: 1024 }, messages: [{ role: 'user', content: 'Hello' }] })
      .withResponse();

    expect(message.type).toBe('message');
    const sent = openai.received[0]?.body;
    expect(sent).toMatchObject({ model: 'gpt-4o-mini', max_completion_tokens: 2048 });
    expect(sent).not.toHaveProperty('reasoning_effort');
    expect(response.headers.get('x-gateway-dropped-fields')).toBe('thinking');
  });
});

describe('/v1/chat/completions with max_tokens on an OpenAI reasoning model', () => {
  it("answers, the cap sent as max_completion_tokens as OpenRouter's users expect (they send max_tokens to every model)", async () => {
    openai.received.length = 0;
    const completion = await gateway.openai(key).chat.completions.create({ model: 'o3-mini', max_tokens: 2000, messages: [{ role: 'user', content: 'Hello' }] });

    expect(completion.choices[0]?.message.content).toBe('Hello there! How can I help you today?');
    expect(openai.received[0]?.body).toMatchObject({ model: 'o3-mini', max_completion_tokens: 2000 });
    expect(openai.received[0]?.body).not.toHaveProperty('max_tokens');
  });
});

describe("/v1/chat/completions with OpenRouter's reasoning object on an OpenAI model", () => {
  it('answers, the object sent as the reasoning_effort OpenAI takes (it refuses the object), a budget as the nearest effort', async () => {
    openai.received.length = 0;
    const completion = await gateway.openai(key).chat.completions.create({
      model: 'o3-mini',
      messages: [{ role: 'user', content: 'Hello' }],
      // As OpenRouter's users send it, through the SDK's extra body.
      ...({ reasoning: { max_tokens: 10_000, exclude: true } } as object),
    });

    expect(completion.choices[0]?.message.content).toBe('Hello there! How can I help you today?');
    expect(openai.received[0]?.body).toMatchObject({ model: 'o3-mini', reasoning_effort: 'high' });
    expect(openai.received[0]?.body).not.toHaveProperty('reasoning');
  });
});

