import { describe, expect, it } from 'vitest';
import type { GatewayRequest } from '../../shared/http/gateway-http.ts';
import { parsePassThroughRequest } from '../../shared/protocols/pass-through/pass-through-request.ts';

function request(path: string, overrides: Partial<GatewayRequest> = {}): GatewayRequest {
  return { method: 'GET', path, query: new URLSearchParams(), headers: {}, body: new Uint8Array(), sourceIp: '127.0.0.1', ...overrides };
}

describe('parsePassThroughRequest', () => {
  it('takes the path below /v1 with its query string', async () => {
    const parsed = await parsePassThroughRequest(request('/v1/vector_stores/vs_1/files', { query: new URLSearchParams('limit=5&order=desc') }));
    expect(parsed).toMatchObject({ method: 'GET', upstreamPath: '/vector_stores/vs_1/files?limit=5&order=desc', model: '', payload: { kind: 'none' } });
  });

  it.each(['/v1/files/../../admin', '/v1/files/%2e%2e/%2E%2E/admin', '/v1/./files', '/v1/files/a%5cb', '/v1/files%2F..%2F..%2Fadmin', '/v1/files/x%2f.%2fy'])('refuses %s, which would leave the API, with 400 invalid_path', async (path) => {
    await expect(parsePassThroughRequest(request(path))).rejects.toMatchObject({ status: 400, code: 'invalid_path' });
  });

  it.each(['/v1/..;/x', '/v1/files/x;jsessionid=1', '/v1/..%3B/x', '/v1/files/%252e%252e/x', '/v1/files/%C0%AE%C0%AE/x', '/v1/files/%u002e%u002e/x', '/v1/files/x%00y', '/v1/files/a%0d%0aX-Injected:%201'])(
    'refuses %s, which a server behind may read otherwise than the gateway, with 400 invalid_path',
    async (path) => {
      await expect(parsePassThroughRequest(request(path))).rejects.toMatchObject({ status: 400, code: 'invalid_path' });
    },
  );

  it('passes an encoded character an id may hold, decoded once into what it says', async () => {
    expect(await parsePassThroughRequest(request('/v1/files/file%2Dabc%20def'))).toMatchObject({ upstreamPath: '/files/file%2Dabc%20def' });
  });

  it('reads the model and routing fields of a JSON body and leaves them out of what goes upstream', async () => {
    const body = new TextEncoder().encode(JSON.stringify({ model: 'm', models: ['n'], route: 'fallback', provider: { order: ['x'] }, stream: true, input: 'hi' }));
    const parsed = await parsePassThroughRequest(request('/v1/realtime/sessions', { method: 'POST', headers: { 'content-type': 'application/json' }, body }));
    expect(parsed).toMatchObject({ model: 'm', models: ['n'], route: 'fallback', stream: true, payload: { kind: 'json', json: { model: 'm', stream: true, input: 'hi' } } });
  });

  it('refuses a JSON body nested deeper than the gateway accepts with 400 json_too_deep, before it is serialised for the provider', async () => {
    const body = new TextEncoder().encode(`{"purpose":"batch","x":${'['.repeat(200_000)}${']'.repeat(200_000)}}`);
    await expect(parsePassThroughRequest(request('/v1/files', { method: 'POST', headers: { 'content-type': 'application/json' }, body }))).rejects.toMatchObject({ status: 400, code: 'json_too_deep' });
  });

  it('forwards the beta and organisation headers a provider API may need, and nothing else', async () => {
    const parsed = await parsePassThroughRequest(request('/v1/assistants', { headers: { 'openai-beta': 'assistants=v2', cookie: 'x', 'x-api-key': 'k' } }));
    expect(parsed.forwardedHeaders).toEqual({ 'openai-beta': 'assistants=v2' });
  });

  it('keeps any other body as its bytes', async () => {
    const body = new Uint8Array([0, 255, 7]);
    const parsed = await parsePassThroughRequest(request('/v1/uploads/u1/parts', { method: 'POST', headers: { 'content-type': 'application/octet-stream' }, body }));
    expect(parsed.payload).toEqual({ kind: 'bytes', bytes: body, contentType: 'application/octet-stream' });
  });
});
