import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sendJson, startFakeOpenAiUpstream, type FakeUpstream } from '../support/fake-openai-upstream.ts';
import { readFixture } from '../support/fixtures.ts';
import { generationOf } from '../support/generation-lookup.ts';
import { startTestGateway, type TestGateway } from '../support/test-gateway.ts';

/**
 * OpenRouter's model-id shortcuts: `:floor` (the cheapest provider, `provider.sort: "price"`) routes, and
 * `:nitro` (the fastest, which the gateway does not measure) is a 400 that says so, never a 403 that calls
 * an allowed model not allowed.
 */
let gateway: TestGateway;
let openai: FakeUpstream;
let openrouter: FakeUpstream;
let key: string;

beforeAll(async () => {
  openai = await startFakeOpenAiUpstream();
  openrouter = await startFakeOpenAiUpstream();
  // Each upstream answers with the model it was sent, as providers do.
  const completion = JSON.parse(readFixture('openai-chat/chat-nonstream-text-usage-details.json')) as Record<string, unknown>;
  for (const upstream of [openai, openrouter]) upstream.answerWith((request, response) => sendJson(response, 200, { ...completion, model: request.body.model }));
  gateway = await startTestGateway();
  const projectId = 'shortcuts';
  await gateway.admin({ command: 'project.create', projectId });
  await gateway.admin({ command: 'provider.set', projectId, provider: 'openai', apiKey: 'sk-openai-upstream-0123456789', baseUrl: openai.baseUrl });
  await gateway.admin({ command: 'provider.set', projectId, provider: 'openrouter', apiKey: 'sk-or-upstream-0123456789', baseUrl: openrouter.baseUrl });
  // One model under two providers; OpenRouter's is the cheaper.
  await gateway.admin({ command: 'model.allow', projectId, slug: 'openai/gpt-4o-mini', alias: 'fast', inputMicrosPer1k: 150, outputMicrosPer1k: 600 });
  await gateway.admin({ command: 'model.allow', projectId, slug: 'openrouter/openai/gpt-4o-mini', inputMicrosPer1k: 100, outputMicrosPer1k: 500 });
  key = (await gateway.admin<{ key: string }>({ command: 'key.create', projectId })).key;
});

afterAll(async () => {
  await gateway.close();
  await openai.close();
  await openrouter.close();
});

const post = (path: string, body: Record<string, unknown>, requestId: string) =>
  fetch(`${gateway.url}${path}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', 'x-request-id': requestId },
    body: JSON.stringify(body),
  });

const messages = [{ role: 'user', content: 'hi' }];

describe('`:floor` on a model id', () => {
  it.each([
    ['a slug', 'openai/gpt-4o-mini:floor'],
    ['an alias', 'fast:floor'],
  ])('on %s routes to its cheapest provider, the suffix named nowhere after', async (_what, model) => {
    const requestId = `floor-${model.replace(/[^a-z]/g, '')}`;
    const response = await post('/v1/chat/completions', { model, messages }, requestId);

    expect(response.status).toBe(200);
    expect(response.headers.get('x-gateway-model')).toBe('openrouter/openai/gpt-4o-mini');
    expect(openrouter.received.at(-1)?.body.model).toBe('openai/gpt-4o-mini');
    expect(((await response.json()) as { model: string }).model).toBe('openai/gpt-4o-mini');
    expect(await generationOf(gateway, key, requestId)).toMatchObject({ model: 'openrouter/openai/gpt-4o-mini', provider: 'openrouter' });
  });

  it('is what routes there: without it the named provider answers', async () => {
    const response = await post('/v1/chat/completions', { model: 'fast', messages }, 'floor-none');

    expect(response.headers.get('x-gateway-model')).toBe('openai/gpt-4o-mini');
  });
});

describe('`:nitro` on a model id', () => {
  it('is a 400 in OpenAI\'s format saying that only a sort by price is offered, not a 403', async () => {
    const response = await post('/v1/chat/completions', { model: 'openai/gpt-4o-mini:nitro', messages }, 'nitro-chat');

    expect(response.status).toBe(400);
    const { error } = (await response.json()) as { error: { type: string; code: string; param: string; message: string } };
    expect(error).toMatchObject({ type: 'invalid_request_error', code: 'invalid_provider_preferences', param: 'model' });
    expect(error.message).toContain('sorts by "price" only');
    expect(error.message).toContain(':floor');
  });

  it("is a 400 in Anthropic's format on /v1/messages", async () => {
    const response = await post('/v1/messages', { model: 'fast:nitro', max_tokens: 16, messages }, 'nitro-messages');

    expect(response.status).toBe(400);
    const body = (await response.json()) as { type: string; error: { type: string; message: string } };
    expect(body).toMatchObject({ type: 'error', error: { type: 'invalid_request_error' } });
    expect(body.error.message).toContain('sorts by "price" only');
  });
});
