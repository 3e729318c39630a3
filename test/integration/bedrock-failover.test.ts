import { describe, expect, it } from 'vitest';
import { sendBedrockError } from '../support/fake-bedrock-runtime.ts';
import { anthropic, bedrock, CLAUDE, gateway, generation, key, NOVA, recordedAnswers, useBedrockGateway } from './bedrock-fixtures.ts';

useBedrockGateway();

describe('failover on Bedrock', () => {
  it('moves on from a throttled model to the next one, counting the attempt', async () => {
    bedrock.answerWith((request, response) =>
      request.model === CLAUDE ? sendBedrockError(response, 429, 'ThrottlingException', 'Too many requests, please wait before trying again.') : recordedAnswers(request, response),
    );
    const { data, response } = await gateway
      .openai(key, { defaultHeaders: { 'x-request-id': 'bedrock-throttled' } })
      .chat.completions.create({ model: 'claude-haiku-4-5', models: ['nova'], route: 'fallback', messages: [{ role: 'user', content: 'Hi' }] } as never)
      .withResponse();

    expect(data.choices[0]?.message.content).toContain('strawberry');
    expect(response.headers.get('x-gateway-model')).toBe(`bedrock/${NOVA}`);
    expect(await generation('bedrock-throttled')).toMatchObject({ model: `bedrock/${NOVA}`, fallback_attempts: 1 });
  });

  it('moves on from a model that is not ready (a 429 that is no rate limit) the same way', async () => {
    bedrock.answerWith((request, response) =>
      request.model === CLAUDE ? sendBedrockError(response, 429, 'ModelNotReadyException', 'The model is not ready to serve inference requests.') : recordedAnswers(request, response),
    );
    const message = await anthropic().messages.create({ model: 'claude-haiku-4-5', models: ['nova'], route: 'fallback', max_tokens: 64, messages: [{ role: 'user', content: 'Hi' }] } as never);

    expect(message.content[0]).toMatchObject({ type: 'text', text: expect.stringContaining('strawberry') });
  });

  it('answers a throttled only target with 429 in the client protocol, and a model not ready as a provider failure, not a rate limit', async () => {
    bedrock.answerWith((_request, response) => sendBedrockError(response, 429, 'ThrottlingException', 'Too many requests, please wait before trying again.'));
    await expect(anthropic().messages.create({ model: 'claude-haiku-4-5', max_tokens: 64, messages: [{ role: 'user', content: 'Hi' }] })).rejects.toMatchObject({
      status: 429,
      error: { error: { type: 'rate_limit_error', message: 'Too many requests, please wait before trying again.' } },
    });
    await expect(gateway.openai(key).chat.completions.create({ model: 'nova', messages: [{ role: 'user', content: 'Hi' }] })).rejects.toMatchObject({ status: 429 });

    bedrock.answerWith((_request, response) => sendBedrockError(response, 429, 'ModelNotReadyException', 'The model is not ready.'));
    await expect(anthropic().messages.create({ model: 'claude-haiku-4-5', max_tokens: 64, messages: [{ role: 'user', content: 'Hi' }] })).rejects.toMatchObject({
      status: 502,
      error: { error: { type: 'overloaded_error', message: 'The model is not ready.' } },
    });
    await expect(gateway.openai(key).chat.completions.create({ model: 'nova', messages: [{ role: 'user', content: 'Hi' }] })).rejects.toMatchObject({ status: 502 });
  });
  it("moves on from a model Bedrock does not find in its region (404), which the gateway's configuration named, and tells the last one as a provider failure", async () => {
    const notFound = 'Could not resolve the foundation model from the provided model identifier.';
    bedrock.answerWith((request, response) => (request.model === CLAUDE ? sendBedrockError(response, 404, 'ResourceNotFoundException', notFound) : recordedAnswers(request, response)));
    const { response } = await gateway
      .openai(key, { defaultHeaders: { 'x-request-id': 'bedrock-not-found' } })
      .chat.completions.create({ model: 'claude-haiku-4-5', models: ['nova'], route: 'fallback', messages: [{ role: 'user', content: 'Hi' }] } as never)
      .withResponse();
    expect(response.headers.get('x-gateway-model')).toBe(`bedrock/${NOVA}`);
    expect(await generation('bedrock-not-found')).toMatchObject({ fallback_attempts: 1 });

    await expect(gateway.openai(key).chat.completions.create({ model: 'claude-haiku-4-5', messages: [{ role: 'user', content: 'Hi' }] })).rejects.toMatchObject({
      status: 502,
      error: { code: 'upstream_error', message: `Provider "bedrock" failed with HTTP 404: ${notFound}` },
    });
    await expect(anthropic().messages.create({ model: 'claude-haiku-4-5', max_tokens: 64, messages: [{ role: 'user', content: 'Hi' }] })).rejects.toMatchObject({
      status: 502,
      error: { error: { type: 'api_error', message: notFound } },
    });
  });
});
