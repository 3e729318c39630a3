import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sendJson, startFakeOpenAiUpstream, type FakeUpstream } from '../support/fake-openai-upstream.ts';
import { startTestGateway, type TestGateway } from '../support/test-gateway.ts';

let gateway: TestGateway;
let openai: FakeUpstream;
let anthropic: FakeUpstream;
let key: string;

beforeAll(async () => {
  openai = await startFakeOpenAiUpstream();
  anthropic = await startFakeOpenAiUpstream();
  gateway = await startTestGateway();
  const projectId = 'counting';
  await gateway.admin({ command: 'project.create', projectId });
  await gateway.admin({ command: 'provider.set', projectId, provider: 'openai', apiKey: 'sk-openai-upstream-0123456789', baseUrl: openai.baseUrl });
  await gateway.admin({ command: 'provider.set', projectId, provider: 'anthropic', apiKey: 'sk-ant-upstream-0123456789', baseUrl: anthropic.baseUrl });
  await gateway.admin({ command: 'model.allow', projectId, slug: 'openai/gpt-5.5', inputMicrosPer1k: 1250, outputMicrosPer1k: 10_000 });
  await gateway.admin({ command: 'model.allow', projectId, slug: 'anthropic/claude-haiku-4-5', inputMicrosPer1k: 1000, outputMicrosPer1k: 5000 });
  key = (await gateway.admin<{ key: string }>({ command: 'key.create', projectId })).key;
});

afterAll(async () => {
  await gateway?.close();
  await openai?.close();
  await anthropic?.close();
});

const conversation = { instructions: 'Be brief.', input: 'Tell me a three sentence bedtime story about a unicorn.' };

/** What `GET /v1/generation` answers for a request id, once the usage queue is drained. */
async function generationStatus(requestId: string): Promise<number> {
  await gateway.host.drainUsage();
  return (await fetch(`${gateway.url}/v1/generation?id=${encodeURIComponent(requestId)}`, { headers: { authorization: `Bearer ${key}` } })).status;
}

describe('POST /v1/responses/input_tokens', () => {
  it('asks a provider that serves the Responses API, with its own model id and no routing fields, and records no usage', async () => {
    openai.answerWith((_request, response) => sendJson(response, 200, { object: 'response.input_tokens', input_tokens: 21 }));
    openai.received.length = 0;
    const { data, response } = await gateway
      .openai(key)
      .responses.inputTokens.count({ model: 'openai/gpt-5.5', ...conversation, route: 'fallback', models: ['anthropic/claude-haiku-4-5'] } as OpenAI.Responses.InputTokenCountParams)
      .withResponse();

    expect(data).toEqual({ object: 'response.input_tokens', input_tokens: 21 });
    expect(response.headers.get('x-gateway-token-count')).toBe('provider');
    expect(openai.received).toHaveLength(1);
    expect(openai.received[0]).toMatchObject({ method: 'POST', path: '/v1/responses/input_tokens', body: { model: 'gpt-5.5', ...conversation } });
    expect(openai.received[0]?.body).not.toHaveProperty('models');
    expect(openai.received[0]?.body).not.toHaveProperty('route');
    // Counting generates nothing: no usage record, as for count_tokens.
    expect(await generationStatus(response.headers.get('x-request-id') ?? '')).toBe(404);
  });

  it('answers a model without the Responses API with the gateway tokenizer’s count, and says it is an estimate', async () => {
    anthropic.received.length = 0;
    const { data, response } = await gateway.openai(key).responses.inputTokens.count({ model: 'claude-haiku-4-5', ...conversation }).withResponse();
    expect(data.object).toBe('response.input_tokens');
    expect(data.input_tokens).toBeGreaterThan(10);
    expect(data.input_tokens).toBeLessThan(40);
    expect(response.headers.get('x-gateway-token-count')).toBe('estimated');
    expect(anthropic.received).toHaveLength(0);
  });

  it('gives the provider’s refusal in OpenAI’s error body with its status', async () => {
    const refusal = { error: { message: "Invalid value: 'nope'. Supported values are: 'auto' and 'disabled'.", type: 'invalid_request_error', param: 'truncation', code: 'invalid_value' } };
    openai.answerWith((_request, response) => sendJson(response, 400, refusal));
    const error = await gateway.openai(key).responses.inputTokens.count({ model: 'openai/gpt-5.5', input: 'x', truncation: 'nope' as 'auto' }).catch((thrown: unknown) => thrown);
    expect(error).toBeInstanceOf(OpenAI.BadRequestError);
    expect(error).toMatchObject({ status: 400, code: 'invalid_value', param: 'truncation' });
  });

  it('checks the key and the allowlist like any request', async () => {
    const unknownKey = await gateway.openai('gw.not-a-key').responses.inputTokens.count({ model: 'openai/gpt-5.5', input: 'x' }).catch((thrown: unknown) => thrown);
    expect(unknownKey).toBeInstanceOf(OpenAI.AuthenticationError);
    const notAllowed = await gateway.openai(key).responses.inputTokens.count({ model: 'openai/gpt-4o', input: 'x' }).catch((thrown: unknown) => thrown);
    expect(notAllowed).toMatchObject({ code: 'model_not_allowed' });
  });
});
