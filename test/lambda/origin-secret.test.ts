import fc from 'fast-check';
import { describe, expect, it, vi } from 'vitest';
import { jsonResponse, type GatewayRequest } from '../../shared/http/gateway-http.ts';
import { guardOrigin, ORIGIN_SECRET_HEADER, verifyOriginSecret } from '../../shared/lambda/origin-secret.ts';
import { renderOpenAiError } from '../../shared/protocols/openai-chat/openai-errors.ts';

const SECRET = 'Xq3v9Lr0PzA7mK2sT8wY4bN6cD1eF5gH';

function request(headers: Record<string, string> = {}): GatewayRequest {
  return { method: 'POST', path: '/v1/chat/completions', query: new URLSearchParams(), headers, body: '{}', sourceIp: '203.0.113.9' };
}

const served = vi.fn(async (_request: GatewayRequest) => jsonResponse(200, { ok: true }));
const renderError = (error: Parameters<typeof renderOpenAiError>[0]) => renderOpenAiError(error, {});

describe('verifyOriginSecret', () => {
  it('accepts the exact secret', () => {
    expect(verifyOriginSecret({ [ORIGIN_SECRET_HEADER]: SECRET }, SECRET)).toBe(true);
  });

  it('refuses a missing, empty, shorter, longer or different value', () => {
    for (const presented of [undefined, '', SECRET.slice(0, -1), `${SECRET}x`, SECRET.toLowerCase()]) {
      expect(verifyOriginSecret(presented === undefined ? {} : { [ORIGIN_SECRET_HEADER]: presented }, SECRET)).toBe(false);
    }
  });

  it('refuses everything when the expected secret is empty', () => {
    expect(verifyOriginSecret({ [ORIGIN_SECRET_HEADER]: '' }, '')).toBe(false);
  });

  it('accepts a value if and only if it equals the secret', () => {
    fc.assert(
      fc.property(fc.string({ minLength: 1 }), fc.string({ minLength: 1 }), (presented, expected) => {
        expect(verifyOriginSecret({ [ORIGIN_SECRET_HEADER]: presented }, expected)).toBe(presented === expected);
      }),
    );
  });
});

describe('guardOrigin', () => {
  it('serves every request when there is no secret to check (the local host)', async () => {
    const serve = guardOrigin(served, { loadSecret: undefined, renderError });
    expect(serve).toBe(served);
  });

  it('answers 403 in the OpenAI error format to a request without the secret, before the route group runs', async () => {
    served.mockClear();
    const serve = guardOrigin(served, { loadSecret: async () => SECRET, renderError });
    const response = await serve(request({ authorization: 'Bearer gw.key' }));
    expect(response.status).toBe(403);
    expect(JSON.parse(response.body as string)).toEqual({
      error: { message: expect.stringContaining('gateway URL'), type: 'permission_error', code: 'origin_not_allowed', param: null },
    });
    expect(served).not.toHaveBeenCalled();
  });

  it('passes a request with the secret on, without the secret header', async () => {
    served.mockClear();
    const serve = guardOrigin(served, { loadSecret: async () => SECRET, renderError });
    const response = await serve(request({ [ORIGIN_SECRET_HEADER]: SECRET, authorization: 'Bearer gw.key' }));
    expect(response.status).toBe(200);
    expect(served.mock.calls[0]?.[0].headers).toEqual({ authorization: 'Bearer gw.key' });
  });

  it('loads the secret once, at creation, for all requests', async () => {
    const loadSecret = vi.fn(async () => SECRET);
    const serve = guardOrigin(served, { loadSecret, renderError });
    expect(loadSecret).toHaveBeenCalledTimes(1);
    await serve(request({ [ORIGIN_SECRET_HEADER]: SECRET }));
    await serve(request());
    expect(loadSecret).toHaveBeenCalledTimes(1);
  });

  it('answers 503 while the secret cannot be loaded, and retries on the next request', async () => {
    const loadSecret = vi.fn<() => Promise<string>>().mockRejectedValueOnce(new Error('throttled')).mockResolvedValue(SECRET);
    const serve = guardOrigin(served, { loadSecret, renderError });
    const first = await serve(request({ [ORIGIN_SECRET_HEADER]: SECRET }));
    expect(first.status).toBe(503);
    expect(first.headers['retry-after']).toBe('1');
    const second = await serve(request({ [ORIGIN_SECRET_HEADER]: SECRET }));
    expect(second.status).toBe(200);
    expect(loadSecret).toHaveBeenCalledTimes(2);
  });
});
