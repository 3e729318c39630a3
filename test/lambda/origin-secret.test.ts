import fc from 'fast-check';
import { describe, expect, it, vi } from 'vitest';
import { jsonResponse, type GatewayRequest } from '../../shared/http/gateway-http.ts';
import { guardOrigin, ORIGIN_SECRET_HEADER, ORIGIN_SECRET_TIMING, verifyOriginSecret, type OriginSecrets } from '../../shared/lambda/origin-secret.ts';
import { renderOpenAiError } from '../../shared/protocols/openai-chat/openai-errors.ts';

const SECRET = 'Xq3v9Lr0PzA7mK2sT8wY4bN6cD1eF5gH';

function request(headers: Record<string, string> = {}): GatewayRequest {
  return { method: 'POST', path: '/v1/chat/completions', query: new URLSearchParams(), headers, body: Buffer.from('{}'), sourceIp: '203.0.113.9' };
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

const current = (value: string): OriginSecrets => ({ current: value, currentSince: 0 });

/** A clock the test moves by hand. */
function manualClock(start = 1_000_000) {
  let time = start;
  return { now: () => time, advance: (ms: number) => (time += ms) };
}

describe('guardOrigin', () => {
  it('serves every request when there is no secret to check (the local host)', async () => {
    const serve = guardOrigin(served, { loadSecrets: undefined, renderError });
    expect(serve).toBe(served);
  });

  it('answers 403 in the OpenAI error format to a request without the secret, before the route group runs', async () => {
    served.mockClear();
    const serve = guardOrigin(served, { loadSecrets: async () => current(SECRET), renderError });
    const response = await serve(request({ authorization: 'Bearer gw.key' }));
    expect(response.status).toBe(403);
    expect(JSON.parse(response.body as string)).toEqual({
      error: { message: expect.stringContaining('gateway URL'), type: 'permission_error', code: 'origin_not_allowed', param: null },
    });
    expect(served).not.toHaveBeenCalled();
  });

  it('passes a request with the secret on, without the secret header', async () => {
    served.mockClear();
    const serve = guardOrigin(served, { loadSecrets: async () => current(SECRET), renderError });
    const response = await serve(request({ [ORIGIN_SECRET_HEADER]: SECRET, authorization: 'Bearer gw.key' }));
    expect(response.status).toBe(200);
    expect(served.mock.calls[0]?.[0].headers).toEqual({ authorization: 'Bearer gw.key' });
  });

  it('reads the secret at creation and keeps it for the cache TTL, then reads it again', async () => {
    const clock = manualClock();
    const loadSecrets = vi.fn(async () => current(SECRET));
    const serve = guardOrigin(served, { loadSecrets, renderError, now: clock.now });
    expect(loadSecrets).toHaveBeenCalledTimes(1);
    await serve(request({ [ORIGIN_SECRET_HEADER]: SECRET }));
    clock.advance(ORIGIN_SECRET_TIMING.cacheTtlMs - 1);
    await serve(request({ [ORIGIN_SECRET_HEADER]: SECRET }));
    expect(loadSecrets).toHaveBeenCalledTimes(1);
    clock.advance(1);
    await serve(request({ [ORIGIN_SECRET_HEADER]: SECRET }));
    expect(loadSecrets).toHaveBeenCalledTimes(2);
  });

  it('re-reads at most once per interval when a request presents another value, so a new value is accepted at once', async () => {
    const clock = manualClock();
    let value = SECRET;
    const loadSecrets = vi.fn(async () => current(value));
    const serve = guardOrigin(served, { loadSecrets, renderError, now: clock.now });
    await serve(request({ [ORIGIN_SECRET_HEADER]: SECRET }));
    value = 'rotated-value-0123456789';
    // Within the interval a wrong value costs no read (direct callers cannot make it hammer Secrets Manager).
    expect((await serve(request({ [ORIGIN_SECRET_HEADER]: value }))).status).toBe(403);
    expect(loadSecrets).toHaveBeenCalledTimes(1);
    clock.advance(ORIGIN_SECRET_TIMING.rereadAfterMismatchMs);
    expect((await serve(request({ [ORIGIN_SECRET_HEADER]: value }))).status).toBe(200);
    expect(loadSecrets).toHaveBeenCalledTimes(2);
  });

  it('accepts the previous value only for the grace period after the current one was stored', async () => {
    const clock = manualClock();
    const secrets: OriginSecrets = { current: 'new-value-0123456789', previous: SECRET, currentSince: clock.now() };
    const serve = guardOrigin(served, { loadSecrets: async () => secrets, renderError, now: clock.now });
    expect((await serve(request({ [ORIGIN_SECRET_HEADER]: SECRET }))).status).toBe(200);
    clock.advance(ORIGIN_SECRET_TIMING.graceMs);
    expect((await serve(request({ [ORIGIN_SECRET_HEADER]: SECRET }))).status).toBe(403);
    expect((await serve(request({ [ORIGIN_SECRET_HEADER]: 'new-value-0123456789' }))).status).toBe(200);
  });

  it('answers 503 while the secret cannot be read, retries on the next request, and keeps old values when a re-read fails', async () => {
    const clock = manualClock();
    const loadSecrets = vi
      .fn<() => Promise<OriginSecrets>>()
      .mockRejectedValueOnce(new Error('throttled'))
      .mockResolvedValueOnce(current(SECRET))
      .mockRejectedValue(new Error('throttled'));
    const serve = guardOrigin(served, { loadSecrets, renderError, now: clock.now });
    await Promise.resolve();
    const first = await serve(request({ [ORIGIN_SECRET_HEADER]: SECRET }));
    expect(first.status).toBe(503);
    expect(first.headers['retry-after']).toBe('1');
    expect((await serve(request({ [ORIGIN_SECRET_HEADER]: SECRET }))).status).toBe(200);
    clock.advance(ORIGIN_SECRET_TIMING.cacheTtlMs);
    expect((await serve(request({ [ORIGIN_SECRET_HEADER]: SECRET }))).status).toBe(200);
    expect(loadSecrets).toHaveBeenCalledTimes(3);
  });
});
