import { describe, expect, it } from 'vitest';
import type { UpstreamFetch } from '../../shared/core/ports.ts';
import { createMessagesRouteGroup } from '../../shared/endpoints/messages-route-group.ts';
import type { GatewayRequest } from '../../shared/http/gateway-http.ts';
import { createFakeGateway, FAKE_KEY, fakeProvider } from '../support/fake-gateway-services.ts';

function request(path: string, body: unknown): GatewayRequest {
  return { method: 'POST', path, query: new URLSearchParams(), headers: { authorization: `Bearer ${FAKE_KEY}` }, body: Buffer.from(JSON.stringify(body)), sourceIp: '127.0.0.1' };
}

/** Anthropic's answer to a wrong API key: the words Claude Code reads as its own login failing. */
const INVALID_KEY = JSON.stringify({ type: 'error', error: { type: 'authentication_error', message: 'invalid x-api-key' }, request_id: 'req_upstream' });
const FORBIDDEN = JSON.stringify({ type: 'error', error: { type: 'permission_error', message: 'Your API key does not have permission to use the specified resource.' } });
const OPENAI_INVALID_KEY = JSON.stringify({ error: { message: 'Incorrect API key provided: sk-proj-****abcd.', type: 'invalid_request_error', code: 'invalid_api_key', param: null } });

function gatewayAnswering(status: number, body: string) {
  const calls: string[] = [];
  const fetch: UpstreamFetch = async (url) => (calls.push(url), new Response(body, { status, headers: { 'content-type': 'application/json' } }));
  const fake = createFakeGateway({
    providers: [fakeProvider('anthropic', ['anthropic-messages'], 'x-api-key'), fakeProvider('backup', ['anthropic-messages'], 'x-api-key'), fakeProvider('openai', ['openai-chat'])],
    models: [{ slug: 'anthropic/claude-haiku-4-5' }, { slug: 'backup/claude-haiku-4-5' }, { slug: 'openai/gpt-4o-mini' }],
    fetch,
  });
  return { serve: createMessagesRouteGroup(fake.services), calls };
}

const ask = { model: 'anthropic/claude-haiku-4-5', max_tokens: 64, messages: [{ role: 'user', content: 'Hello' }] };

/** The gateway's own words for a refused provider credential, as the chat route gives them. */
function expectGatewaysOwnCredentialError(body: string, status: number, provider = 'anthropic') {
  const parsed = JSON.parse(body) as { type: string; error: { type: string; message: string } };
  expect(parsed).toMatchObject({ type: 'error', error: { type: 'api_error' } });
  expect(parsed.error.message).toContain(`Provider "${provider}" rejected the project's credential (HTTP ${status})`);
  expect(body).not.toMatch(/x-api-key|authentication_error|permission_error|Incorrect API key|sk-proj/);
}

describe('the messages route group, when the provider refuses the project credential', () => {
  it.each([
    [401, INVALID_KEY],
    [403, FORBIDDEN],
  ])('answers a native upstream %i with 502 api_error in its own words, so Claude Code does not ask its user to log in', async (status, body) => {
    const response = await gatewayAnswering(status, body).serve(request('/v1/messages', ask));
    expect(response.status).toBe(502);
    expectGatewaysOwnCredentialError(String(response.body), status);
  });

  it('does the same for a streamed request', async () => {
    const response = await gatewayAnswering(401, INVALID_KEY).serve(request('/v1/messages', { ...ask, stream: true }));
    expect(response.status).toBe(502);
    expectGatewaysOwnCredentialError(String(response.body), 401);
  });

  it('does the same for a translated target (an OpenAI-compatible provider answering 401)', async () => {
    const response = await gatewayAnswering(401, OPENAI_INVALID_KEY).serve(request('/v1/messages', { ...ask, model: 'openai/gpt-4o-mini' }));
    expect(response.status).toBe(502);
    expectGatewaysOwnCredentialError(String(response.body), 401, 'openai');
  });

  it('does the same when every attempt of a failover was refused', async () => {
    const { serve, calls } = gatewayAnswering(401, INVALID_KEY);
    const response = await serve(request('/v1/messages', { ...ask, models: ['backup/claude-haiku-4-5'], route: 'fallback' }));
    expect(calls).toHaveLength(2);
    expect(response.status).toBe(502);
    expectGatewaysOwnCredentialError(String(response.body), 401, 'backup');
  });

  it('does the same for count_tokens', async () => {
    const response = await gatewayAnswering(401, INVALID_KEY).serve(request('/v1/messages/count_tokens', { model: ask.model, messages: ask.messages }));
    expect(response.status).toBe(502);
    expectGatewaysOwnCredentialError(String(response.body), 401);
  });
});

describe("the messages route group's own errors", () => {
  it('name the request id as Anthropic does: request_id in the body and a request-id header, both the x-request-id', async () => {
    const { serve } = gatewayAnswering(200, '{}');
    const unauthenticated = await serve({ ...request('/v1/messages', ask), headers: { 'x-request-id': 'own-error-1' } });
    expect(unauthenticated.status).toBe(401);
    expect(unauthenticated.headers).toMatchObject({ 'x-request-id': 'own-error-1', 'request-id': 'own-error-1' });
    expect(JSON.parse(String(unauthenticated.body))).toEqual({ type: 'error', error: { type: 'authentication_error', message: expect.any(String) }, request_id: 'own-error-1' });
  });

  it('name the gateway-made request id too, and so does a refused provider credential', async () => {
    const response = await gatewayAnswering(401, INVALID_KEY).serve(request('/v1/messages', ask));
    const requestId = response.headers['x-request-id'];
    expect(requestId).toMatch(/^gen-/);
    expect(response.headers['request-id']).toBe(requestId);
    expect(JSON.parse(String(response.body))).toMatchObject({ type: 'error', error: { type: 'api_error' }, request_id: requestId });
  });

  it("leave a passed-through upstream error's body as the upstream wrote it", async () => {
    const invalid = JSON.stringify({ type: 'error', error: { type: 'invalid_request_error', message: 'max_tokens: field required' }, request_id: 'req_upstream' });
    const response = await gatewayAnswering(400, invalid).serve(request('/v1/messages', ask));
    expect(response.status).toBe(400);
    expect(response.body).toBe(invalid);
  });
});
