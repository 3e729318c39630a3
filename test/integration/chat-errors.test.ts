import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeOpenAiUpstream, sendJson, type FakeUpstream } from '../support/fake-openai-upstream.ts';
import { readFixture } from '../support/fixtures.ts';
import { createProjectWithKey, startTestGateway, type TestGateway } from '../support/test-gateway.ts';
import { DynamoProjectStore } from '../../shared/adapters/aws/dynamo-project-store.ts';
import { LOCAL_TABLES } from '../../tools/local-host/local-environment.ts';
import { embeddedStoreDocuments } from '../../shared/wiring/dynamo-documents.ts';

const UPSTREAM_KEY = 'sk-upstream-secret-0123456789';
let gateway: TestGateway;
let upstream: FakeUpstream;
let key: string;

beforeAll(async () => {
  upstream = await startFakeOpenAiUpstream();
  gateway = await startTestGateway({ GATEWAY_UPSTREAM_FIRST_BYTE_TIMEOUT_MS: '500' });
  key = await createProjectWithKey(gateway, { projectId: 'acme', baseUrl: upstream.baseUrl, apiKey: UPSTREAM_KEY, models: [{ slug: 'openai/gpt-4o-mini' }] });
});

afterAll(async () => {
  await gateway.close();
  await upstream.close();
});

const hello = { model: 'openai/gpt-4o-mini', messages: [{ role: 'user' as const, content: 'hi' }] };

async function rawPost(body: string, headers: Record<string, string> = { authorization: `Bearer ${key}` }) {
  const response = await fetch(`${gateway.url}/v1/chat/completions`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body });
  return { status: response.status, headers: response.headers, body: (await response.json()) as { error: Record<string, unknown> } };
}

async function apiError(call: Promise<unknown>): Promise<InstanceType<typeof OpenAI.APIError>> {
  const error = await call.then(() => undefined, (thrown: unknown) => thrown);
  if (!(error instanceof OpenAI.APIError)) throw new Error(`expected an APIError, got ${String(error)}`);
  return error;
}

describe('authentication errors', () => {
  it.each([
    ['a missing key', {}],
    ['a provider key', { authorization: 'Bearer sk-proj-abcdefghijklmnop' }],
    ['a malformed gateway key', { authorization: 'Bearer gw.short' }],
    ['an unknown gateway key', { authorization: `Bearer gw.${'A'.repeat(43)}` }],
  ])('refuses %s with 401 in the OpenAI error format', async (_what, headers) => {
    const { status, headers: responseHeaders, body } = await rawPost(JSON.stringify(hello), headers);

    expect(status).toBe(401);
    expect(body.error).toMatchObject({ type: 'authentication_error', code: 'invalid_api_key', param: null });
    expect(typeof body.error.message).toBe('string');
    expect(responseHeaders.get('x-request-id')).toMatch(/^gen-/);
  });

  it('refuses a key at once after it is revoked', async () => {
    upstream.answerWith((_request, response) => sendJson(response, 200, readFixture('openai-chat/chat-nonstream-tool-calls.json')));
    const created = await gateway.admin<{ id: string; key: string }>({ command: 'key.create', projectId: 'acme', name: 'short-lived' });
    await gateway.openai(created.key).chat.completions.create(hello);

    await gateway.admin({ command: 'key.revoke', projectId: 'acme', keyId: created.id });
    const error = await apiError(gateway.openai(created.key).chat.completions.create(hello));

    expect(error.status).toBe(401);
    expect(error.message).toMatch(/revoked/);
  });
});

describe('request errors', () => {
  it('answers malformed JSON with 400 invalid_json', async () => {
    const { status, body } = await rawPost('{"model": ');
    expect(status).toBe(400);
    expect(body.error).toMatchObject({ type: 'invalid_request_error', code: 'invalid_json' });
  });

  it('answers a request without a model with 400 missing_model', async () => {
    const { status, body } = await rawPost(JSON.stringify({ messages: [] }));
    expect(status).toBe(400);
    expect(body.error).toMatchObject({ code: 'missing_model', param: 'model' });
  });

  it('refuses an empty messages array with 400, as OpenAI does, rather than answer and bill an empty conversation', async () => {
    const { status, body } = await rawPost(JSON.stringify({ model: 'openai/gpt-4o-mini', messages: [] }));
    expect(status).toBe(400);
    expect(body.error).toMatchObject({ type: 'invalid_request_error', param: 'messages', message: expect.stringContaining('at least one message') });
  });

  it('refuses a model that is not on the allowlist with 404 model_not_allowed', async () => {
    const error = await apiError(gateway.openai(key).chat.completions.create({ ...hello, model: 'openai/gpt-5' }));
    expect(error.status).toBe(404);
    expect(error.code).toBe('model_not_allowed');
  });

  it('answers an allowed model whose provider is not configured with 400 no_routable_model', async () => {
    // `model allow` refuses such a model now; a store written before that may still hold one.
    await gateway.admin({ command: 'project.create', projectId: 'legacy' });
    const { key: legacyKey } = await gateway.admin<{ key: string }>({ command: 'key.create', projectId: 'legacy' });
    const store = new DynamoProjectStore(embeddedStoreDocuments(gateway.host.store.endpoint), LOCAL_TABLES.projects);
    await store.putModel('legacy', { slug: 'groq/llama-3.3-70b', provider: 'groq', model: 'llama-3.3-70b', kind: 'chat', createdAt: new Date().toISOString() }, undefined);

    const error = await apiError(gateway.openai(legacyKey).chat.completions.create({ ...hello, model: 'groq/llama-3.3-70b' }));
    expect(error.status).toBe(400);
    expect(error.code).toBe('no_routable_model');
  });

  it('refuses every request of a project whose plan is inactive with 403 plan_inactive', async () => {
    const otherKey = await createProjectWithKey(gateway, { projectId: 'lapsed', baseUrl: upstream.baseUrl, models: [{ slug: 'openai/gpt-4o-mini' }] });
    await gateway.admin({ command: 'project.update', projectId: 'lapsed', plan: 'inactive' });
    const error = await apiError(gateway.openai(otherKey).chat.completions.create(hello));
    expect(error.status).toBe(403);
    expect(error.code).toBe('plan_inactive');
  });

  it('answers a body over 6 MB with 413 request_too_large', async () => {
    const { status, body } = await rawPost(JSON.stringify({ ...hello, messages: [{ role: 'user', content: 'x'.repeat(6.5 * 1024 * 1024) }] }));
    expect(status).toBe(413);
    expect(body.error.code).toBe('request_too_large');
  });

  it('answers an unknown path with 404 and a wrong method with 405, both in the OpenAI format', async () => {
    const missing = await fetch(`${gateway.url}/v1/nothing-here`, { headers: { authorization: `Bearer ${key}` } });
    const wrongMethod = await fetch(`${gateway.url}/v1/chat/completions`, { headers: { authorization: `Bearer ${key}` } });
    expect(missing.status).toBe(404);
    expect(((await missing.json()) as { error: { code: string } }).error.code).toBe('not_found');
    expect(wrongMethod.status).toBe(405);
    expect(wrongMethod.headers.get('allow')).toBe('POST, OPTIONS');
  });
});

describe('upstream errors', () => {
  it('keeps an upstream 429 as 429 with its Retry-After', async () => {
    upstream.answerWith((_request, response) =>
      sendJson(response, 429, readFixture('openai-chat/chat-error-429-rate-limit-exceeded-2024.json'), { 'retry-after': '7' }),
    );
    const error = await apiError(gateway.openai(key).chat.completions.create(hello));
    expect(error.status).toBe(429);
    expect(error.headers?.get('retry-after')).toBe('7');
    expect(error.message).toMatch(/Provider "openai" is rate limiting requests: Rate limit reached/);
  });

  it('passes a provider 400 about the client request through unchanged', async () => {
    const recorded = readFixture('openai-chat/chat-error-400-unsupported-parameter.json');
    upstream.answerWith((_request, response) => sendJson(response, 400, recorded));
    const { status, body } = await rawPost(JSON.stringify(hello));
    expect(status).toBe(400);
    expect(body).toEqual(JSON.parse(recorded));
  });

  it("answers a provider's HTML error page (nginx's 400) as OpenAI's error, with its status and the page's words", async () => {
    upstream.answerWith((_request, response) => sendJson(response, 400, readFixture('other/nginx-400-bad-request.html'), { 'content-type': 'text/html' }));
    const { status, headers, body } = await rawPost(JSON.stringify(hello));
    expect(status).toBe(400);
    expect(headers.get('content-type')).toMatch(/^application\/json/);
    expect(body).toEqual({ error: { message: '400 Bad Request nginx', type: 'invalid_request_error', code: null, param: null } });

    const error = await apiError(gateway.openai(key).chat.completions.create(hello));
    expect(error).toBeInstanceOf(OpenAI.BadRequestError);
    expect(error.message).toBe('400 400 Bad Request nginx');
  });

  it("names a provider's HTML 502 page by its words, not its markup", async () => {
    upstream.answerWith((_request, response) => sendJson(response, 502, readFixture('other/nginx-502-bad-gateway.html'), { 'content-type': 'text/html' }));
    const error = await apiError(gateway.openai(key).chat.completions.create(hello));
    expect(error.status).toBe(502);
    expect(error.code).toBe('upstream_error');
    expect(error.message).toBe('502 Provider "openai" failed with HTTP 502: 502 Bad Gateway nginx');
  });

  it('turns an upstream 5xx into 502 naming the provider', async () => {
    upstream.answerWith((_request, response) => sendJson(response, 503, { error: { message: 'The engine is currently overloaded', type: 'server_error' } }));
    const error = await apiError(gateway.openai(key).chat.completions.create(hello));
    expect(error.status).toBe(502);
    expect(error.code).toBe('upstream_error');
    expect(error.message).toMatch(/Provider "openai" failed with HTTP 503: The engine is currently overloaded/);
  });

  it('turns a rejected provider credential into 502 without echoing the key', async () => {
    upstream.answerWith((_request, response) =>
      sendJson(response, 401, { error: { message: `Incorrect API key provided: ${UPSTREAM_KEY}.`, type: 'invalid_request_error', code: 'invalid_api_key' } }),
    );
    const { status, body } = await rawPost(JSON.stringify(hello));
    expect(status).toBe(502);
    expect(body.error.code).toBe('provider_auth_failed');
    expect(JSON.stringify(body)).not.toContain(UPSTREAM_KEY);
    expect(body.error.message).toMatch(/Provider "openai" rejected/);
  });

  it('answers an upstream that does not respond in time with 502 upstream_timeout', async () => {
    upstream.answerWith(() => {});
    const error = await apiError(gateway.openai(key).chat.completions.create(hello));
    expect(error.status).toBe(502);
    expect(error.code).toBe('upstream_timeout');
  });

  it('answers an unreachable upstream with 502 upstream_unreachable', async () => {
    const closed = await startFakeOpenAiUpstream();
    await closed.close();
    const unreachableKey = await createProjectWithKey(gateway, { projectId: 'offline', baseUrl: closed.baseUrl, models: [{ slug: 'openai/gpt-4o-mini' }] });
    const error = await apiError(gateway.openai(unreachableKey).chat.completions.create(hello));
    expect(error.status).toBe(502);
    expect(error.code).toBe('upstream_unreachable');
    expect(error.message).toMatch(/Could not reach provider "openai": ECONNREFUSED/);
  });
});
