import { describe, expect, it } from 'vitest';
import { chatCompletionsEndpoint } from '../../shared/endpoints/chat-completions.ts';
import type { GatewayRequest } from '../../shared/http/gateway-http.ts';
import { runGeneration } from '../../shared/pipeline/run-generation.ts';
import { createFakeGateway, FAKE_KEY, fakeProvider } from '../support/fake-gateway-services.ts';
import { readFixture } from '../support/fixtures.ts';

const chatAnswer = readFixture('openai-chat/chat-nonstream-text-usage-details.json');
const route = { requestId: 'gen-provisional-1', receivedAt: Date.now() };

function request(body: Record<string, unknown>): GatewayRequest {
  return { method: 'POST', path: '/v1/chat/completions', query: new URLSearchParams(), headers: { authorization: `Bearer ${FAKE_KEY}` }, body: Buffer.from(JSON.stringify(body)), sourceIp: '127.0.0.1' };
}

/**
 * The record a crash leaves (docs/decisions/metering.md): left before the provider is sent the request, again
 * for each target tried, so that a process stopped while waiting for one of them meters that one.
 */
describe('the provisional record of a request', () => {
  it('is left before each target is sent the request, naming that target, and the real record follows under the same id', async () => {
    const leftWhenCalled: number[] = [];
    const fake = createFakeGateway({
      providers: [fakeProvider('openai', ['openai-chat']), fakeProvider('openrouter', ['openai-chat'])],
      models: [{ slug: 'openai/gpt-4o-mini' }, { slug: 'openrouter/openai/gpt-4o-mini' }],
      keepsProvisionalRecords: true,
      fetch: async (url) => {
        leftWhenCalled.push(fake.provisional.length);
        return String(url).includes('openai.example')
          ? new Response('{"error":{"message":"Rate limited","type":"rate_limit_error"}}', { status: 429, headers: { 'content-type': 'application/json' } })
          : new Response(chatAnswer, { headers: { 'content-type': 'application/json' } });
      },
    });

    const response = await runGeneration(chatCompletionsEndpoint, request({ model: 'openai/gpt-4o-mini', route: 'fallback', messages: [{ role: 'user', content: 'Hi' }] }), fake.services, route);

    expect(response.status).toBe(200);
    expect(leftWhenCalled).toEqual([1, 2]);
    expect(fake.provisional.map((record) => [record.model, record.status, record.errorCode, record.fallbackAttempts])).toEqual([
      ['openai/gpt-4o-mini', 'failed', 'gateway_interrupted', 0],
      ['openrouter/openai/gpt-4o-mini', 'failed', 'gateway_interrupted', 1],
    ]);
    expect(fake.records).toEqual([expect.objectContaining({ recordId: fake.provisional[1]?.recordId, model: 'openrouter/openai/gpt-4o-mini', status: 'completed' })]);
  });
});
