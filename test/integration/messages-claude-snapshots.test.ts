import Anthropic from '@anthropic-ai/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recordedAnthropicAnswer } from '../support/fake-anthropic-upstream.ts';
import { startFakeOpenAiUpstream, type FakeUpstream } from '../support/fake-openai-upstream.ts';
import { startTestGateway, type TestGateway } from '../support/test-gateway.ts';

/**
 * Claude Code sends some models by their dated snapshot id (`claude-haiku-4-5-20251001`); the README's
 * examples allow the undated one. Anthropic documents the two as one model.
 */
let gateway: TestGateway;
let upstream: FakeUpstream;
let undatedKey: string;
let datedKey: string;

beforeAll(async () => {
  upstream = await startFakeOpenAiUpstream();
  upstream.answerWith(recordedAnthropicAnswer());
  gateway = await startTestGateway();
  for (const [projectId, slug] of [['undated', 'anthropic/claude-haiku-4-5'], ['dated', 'anthropic/claude-haiku-4-5-20251001']] as const) {
    await gateway.admin({ command: 'project.create', projectId });
    await gateway.admin({ command: 'provider.set', projectId, provider: 'anthropic', apiKey: 'sk-ant-upstream-0123456789', baseUrl: upstream.baseUrl });
    await gateway.admin({ command: 'model.allow', projectId, slug, inputMicrosPer1k: 1_000, outputMicrosPer1k: 5_000 });
  }
  undatedKey = (await gateway.admin<{ key: string }>({ command: 'key.create', projectId: 'undated' })).key;
  datedKey = (await gateway.admin<{ key: string }>({ command: 'key.create', projectId: 'dated' })).key;
});

afterAll(async () => {
  await gateway.close();
  await upstream.close();
});

async function ask(authToken: string, model: string) {
  upstream.received.length = 0;
  const client = new Anthropic({ authToken, apiKey: null, baseURL: gateway.url, maxRetries: 0 });
  const { response } = await client.messages.create({ model, max_tokens: 64, messages: [{ role: 'user', content: 'Hello' }] }).withResponse();
  return { servedBy: response.headers.get('x-gateway-model'), upstreamModel: upstream.received[0]?.body.model };
}

async function refusal(authToken: string, model: string) {
  const client = new Anthropic({ authToken, apiKey: null, baseURL: gateway.url, maxRetries: 0 });
  return client.messages.create({ model, max_tokens: 64, messages: [{ role: 'user', content: 'Hello' }] }).then(
    () => undefined,
    (error: unknown) => error as InstanceType<typeof Anthropic.APIError>,
  );
}

describe("a Claude model's dated snapshot id and its undated alias on /v1/messages", () => {
  it('serves the dated id Claude Code sends when the undated one is allowed, sending the upstream the id sent', async () => {
    expect(await ask(undatedKey, 'claude-haiku-4-5-20251001')).toEqual({ servedBy: 'anthropic/claude-haiku-4-5', upstreamModel: 'claude-haiku-4-5-20251001' });
  });

  it('serves the undated id when the dated one is allowed, sending the upstream the allowed snapshot', async () => {
    expect(await ask(datedKey, 'claude-haiku-4-5')).toEqual({ servedBy: 'anthropic/claude-haiku-4-5-20251001', upstreamModel: 'claude-haiku-4-5-20251001' });
  });

  it('refuses a snapshot the catalog does not name as that model with 404 model_not_allowed', async () => {
    for (const key of [undatedKey, datedKey]) {
      const error = await refusal(key, 'claude-haiku-4-5-20991231');
      expect(error?.status).toBe(404);
      expect(error?.error).toMatchObject({ error: { type: 'not_found_error' } });
    }
  });
});
