import { describe, expect, it } from 'vitest';
import { chatCompletionsEndpoint } from '../../shared/endpoints/chat-completions.ts';
import { messagesEndpoint } from '../../shared/endpoints/messages.ts';
import { responsesEndpoint } from '../../shared/endpoints/responses.ts';
import type { ProviderConfig } from '../../shared/core/project-config.ts';
import type { UpstreamFetch } from '../../shared/core/ports.ts';
import { asWebStream, type GatewayRequest, type GatewayResponse } from '../../shared/http/gateway-http.ts';
import type { GenerationEndpoint, RoutableBody } from '../../shared/pipeline/generation-endpoint.ts';
import { runGeneration } from '../../shared/pipeline/run-generation.ts';
import { createFakeGateway, FAKE_KEY, fakeProvider } from '../support/fake-gateway-services.ts';
import { readFixture } from '../support/fixtures.ts';

const route = { requestId: 'gen-ignored-stream', receivedAt: Date.now() };
const json = (body: string, type = 'application/json') => new Response(body, { headers: { 'content-type': type } });
const chatAnswer = readFixture('openai-chat/chat-nonstream-text-usage-details.json');
const chatText = (JSON.parse(chatAnswer) as { choices: Array<{ message: { content: string } }> }).choices[0]?.message.content ?? '';
const messageAnswer = readFixture('anthropic/messages-nonstream-text.json');
const responseAnswer = readFixture('openai-responses/responses-nonstream-text.json');

const hello = [{ role: 'user', content: 'Hi' }];
const chat = { path: '/v1/chat/completions', body: { model: 'pc/m', stream: true, messages: hello } };
const messages = { path: '/v1/messages', body: { model: 'pc/m', stream: true, max_tokens: 100, messages: hello } };
const responses = { path: '/v1/responses', body: { model: 'pc/m', stream: true, input: 'Hi' } };

function request(call: { path: string; body: Record<string, unknown> }, extra: Record<string, unknown> = {}): GatewayRequest {
  return { method: 'POST', path: call.path, query: new URLSearchParams(), headers: { authorization: `Bearer ${FAKE_KEY}` }, body: Buffer.from(JSON.stringify({ ...call.body, ...extra })), sourceIp: '127.0.0.1' };
}

function gateway(protocols: ProviderConfig['protocols'], fetch: UpstreamFetch) {
  return createFakeGateway({ providers: [fakeProvider('pc', protocols), fakeProvider('backup', ['openai-chat'])], models: [{ slug: 'pc/m' }, { slug: 'backup/m2' }], fetch });
}

async function text(response: GatewayResponse): Promise<string> {
  return typeof response.body === 'string' ? response.body : new Response(asWebStream(response.body)).text();
}

describe('a complete JSON answer to a client that asked for a stream (the upstream ignored `stream: true`)', () => {
  it.each([
    ['a native chat completion', ['openai-chat'], chatCompletionsEndpoint, chat, chatAnswer, [`"content":${JSON.stringify(chatText)}`, '"finish_reason":"stop"', 'data: [DONE]']],
    ['a message translated to chat', ['openai-chat'], messagesEndpoint, messages, chatAnswer, ['event: message_start', `"text":${JSON.stringify(chatText)}`, '"stop_reason":"end_turn"', 'event: message_stop']],
    ['a native message', ['anthropic-messages'], messagesEndpoint, messages, messageAnswer, ['event: message_start', '"text_delta"', '"stop_reason":"end_turn"', 'event: message_stop']],
    ['a native response', ['openai-responses'], responsesEndpoint, responses, responseAnswer, ['event: response.created', '"delta":"pong"', 'event: response.completed']],
  ] as const)('reaches the client as its protocol\'s stream: %s', async (_what, protocols, endpoint, call, answer, frames) => {
    const fake = gateway([...protocols], async () => json(answer));
    const response = await runGeneration(endpoint as GenerationEndpoint<RoutableBody>, request(call), fake.services, route);
    expect(response.status).toBe(200);
    expect(response.headers['content-type']).toBe('text/event-stream');
    const body = await text(response);
    for (const frame of frames) expect(body).toContain(frame);
    expect(fake.records).toHaveLength(1);
    expect(fake.records[0]?.status).toBe('completed');
    expect(fake.records[0]?.completionTokens).toBeGreaterThan(0);
  });

  it('bills the completion tokens the upstream reported', async () => {
    const fake = gateway(['openai-chat'], async () => json(chatAnswer));
    await text(await runGeneration(chatCompletionsEndpoint, request(chat), fake.services, route));
    expect(fake.records[0]).toMatchObject({ status: 'completed', streamed: true, promptTokens: 16, completionTokens: 363, finishReason: 'stop' });
  });

  it('fails with 502 upstream_invalid_response before anything reached the client when the 200 is an HTML page', async () => {
    const fake = gateway(['openai-chat'], async () => json('<html><body>502 Bad Gateway</body></html>', 'text/html'));
    await expect(runGeneration(chatCompletionsEndpoint, request(chat), fake.services, route)).rejects.toMatchObject({ status: 502, code: 'upstream_invalid_response' });
    expect(fake.records[0]).toMatchObject({ status: 'failed', errorCode: 'upstream_invalid_response', completionTokens: 0 });
  });

  it('with route "fallback", moves on from an error object to the next target, which streams', async () => {
    const stream = readFixture('openai-chat/chat-stream-text-include-usage.sse');
    const fake = gateway(['openai-chat'], async (_url, init) =>
      String(init?.body).includes('"m2"') ? json(stream, 'text/event-stream') : json('{"error":{"message":"upstream overloaded"}}'),
    );
    const response = await runGeneration(chatCompletionsEndpoint, request(chat, { route: 'fallback', models: ['backup/m2'] }), fake.services, route);
    expect(response.headers['x-gateway-model']).toBe('backup/m2');
    const body = await text(response);
    expect(body).toContain('"object":"chat.completion.chunk"');
    expect(body).toContain('data: [DONE]');
    expect(fake.records[0]).toMatchObject({ status: 'completed', model: 'backup/m2', fallbackAttempts: 1 });
  });
});
