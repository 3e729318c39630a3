import { describe, expect, it, vi } from 'vitest';
import { GatewayError } from '../../shared/core/errors.ts';
import type { UpstreamFetch } from '../../shared/core/ports.ts';
import { callUpstream, type UpstreamCall } from '../../shared/transport/call-upstream.ts';

function call(fetch: UpstreamFetch, firstByteTimeoutMs = 5_000): UpstreamCall {
  return {
    fetch,
    provider: 'openai',
    url: 'https://api.openai.com/v1/chat/completions',
    headers: { 'content-type': 'application/json', authorization: 'Bearer sk-test-secret-123456' },
    body: '{"model":"gpt-4o-mini","messages":[]}',
    firstByteTimeoutMs,
  };
}

async function rejection(promise: Promise<unknown>): Promise<GatewayError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof GatewayError) return error;
    throw error;
  }
  throw new Error('expected a rejection');
}

/** A fetch that answers only when aborted, and then the way real fetch does: by rejecting with the signal's reason. */
const hangsUntilAborted: UpstreamFetch = (_url, init) =>
  new Promise<Response>((_resolve, reject) => {
    const signal = init.signal;
    if (!signal) throw new Error('callUpstream must pass an abort signal');
    signal.addEventListener('abort', () => reject(signal.reason), { once: true });
  });

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('callUpstream', () => {
  it('POSTs the body with the given headers to the given URL', async () => {
    const seen: Array<{ url: string; init: RequestInit }> = [];
    const fetch: UpstreamFetch = async (url, init) => {
      seen.push({ url, init });
      return new Response('{}');
    };
    await callUpstream(call(fetch));
    expect(seen).toHaveLength(1);
    expect(seen[0]?.url).toBe('https://api.openai.com/v1/chat/completions');
    expect(seen[0]?.init.method).toBe('POST');
    expect(seen[0]?.init.body).toBe('{"model":"gpt-4o-mini","messages":[]}');
    expect(seen[0]?.init.headers).toEqual({ 'content-type': 'application/json', authorization: 'Bearer sk-test-secret-123456' });
    expect(seen[0]?.init.signal).toBeInstanceOf(AbortSignal);
  });

  it('resolves with the upstream response whatever its status', async () => {
    const response = await callUpstream(call(async () => new Response('{"error":"boom"}', { status: 500 })));
    expect(response.status).toBe(500);
    expect(await response.text()).toBe('{"error":"boom"}');
  });

  it('turns a connection failure into 502 upstream_unreachable naming the provider and the network code', async () => {
    const refused: UpstreamFetch = async () => {
      throw new TypeError('fetch failed', { cause: Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' }) });
    };
    const error = await rejection(callUpstream(call(refused)));
    expect(error.status).toBe(502);
    expect(error.kind).toBe('upstream');
    expect(error.code).toBe('upstream_unreachable');
    expect(error.message).toBe('Could not reach provider "openai": ECONNREFUSED.');
    expect(error.cause).toBeInstanceOf(TypeError);
  });

  it('falls back to the error message when the failure carries no network code', async () => {
    const failing: UpstreamFetch = async () => {
      throw new Error('socket hang up');
    };
    expect((await rejection(callUpstream(call(failing)))).message).toBe('Could not reach provider "openai": socket hang up.');
  });

  it('describes a thrown non-error as a network error', async () => {
    const failing: UpstreamFetch = () => Promise.reject('weird');
    const error = await rejection(callUpstream(call(failing)));
    expect(error.code).toBe('upstream_unreachable');
    expect(error.message).toBe('Could not reach provider "openai": network error.');
  });

  it('never puts the URL or the authorization header in the message', async () => {
    const failing: UpstreamFetch = async () => {
      throw new TypeError('fetch failed', { cause: { code: 'ENOTFOUND' } });
    };
    const error = await rejection(callUpstream(call(failing)));
    expect(error.message).not.toContain('sk-test-secret');
    expect(error.message).not.toContain('api.openai.com');
  });

  it('aborts a request whose response head does not arrive in time with 502 upstream_timeout, and not a moment before', async () => {
    vi.useFakeTimers();
    try {
      let settled = false;
      const pending = rejection(callUpstream(call(hangsUntilAborted, 20))).finally(() => (settled = true));
      await vi.advanceTimersByTimeAsync(19);
      expect(settled).toBe(false);
      await vi.advanceTimersByTimeAsync(1);
      const error = await pending;
      expect(error.status).toBe(502);
      expect(error.code).toBe('upstream_timeout');
      expect(error.message).toBe('Provider "openai" did not answer within 20 ms.');
    } finally {
      vi.useRealTimers();
    }
  });

  it('reports a time-out under a second in milliseconds and a longer one in seconds, exactly (1,400 ms is not "1 s")', async () => {
    const short = await rejection(callUpstream(call(hangsUntilAborted, 40)));
    const long = await rejection(callUpstream(call(hangsUntilAborted, 1_400)));
    expect(short.message).toBe('Provider "openai" did not answer within 40 ms.');
    expect(long.message).toBe('Provider "openai" did not answer within 1.4 s.');
  });

  it('does not abort the request once the response head has arrived, so a long stream can go on', async () => {
    let signal: AbortSignal | null | undefined;
    const fetch: UpstreamFetch = async (_url, init) => {
      signal = init.signal;
      return new Response('streaming…');
    };
    await callUpstream(call(fetch, 10));
    await sleep(40);
    expect(signal?.aborted).toBe(false);
  });

  it("leaves the exchange to the caller's controller once the head has arrived, so a body that never ends can be let go", async () => {
    let signal: AbortSignal | null | undefined;
    const fetch: UpstreamFetch = async (_url, init) => {
      signal = init.signal;
      return new Response('{"id":');
    };
    const exchange = new AbortController();
    await callUpstream({ ...call(fetch, 10), exchange });
    const reason = new Error('deadline');

    exchange.abort(reason);

    expect(signal?.aborted).toBe(true);
    expect(signal?.reason).toBe(reason);
  });

  it('treats an abort that is not its own time-out as a connection failure', async () => {
    const aborted: UpstreamFetch = async () => {
      throw new DOMException('This operation was aborted', 'AbortError');
    };
    const error = await rejection(callUpstream(call(aborted, 5_000)));
    expect(error.code).toBe('upstream_unreachable');
  });
});
