import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  isGatewaySideUpstreamStatus,
  MAX_ERROR_BODY_BYTES,
  readUpstreamErrorAnswer,
  readUpstreamErrorMessage,
  redactSecrets,
  upstreamFailureToGatewayError,
} from '../../shared/transport/upstream-errors.ts';
import { readFixture } from '../support/fixtures.ts';

const API_KEY = 'sk-proj-Zq8XvN3kLm0pQr7StUv1WxYz';

function jsonError(status: number, body: unknown, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json', ...headers } });
}

describe('upstreamFailureToGatewayError', () => {
  it.each([401, 403])('turns an upstream %i into 502 provider_auth_failed', async (status) => {
    const response = jsonError(status, { error: { message: `Incorrect API key provided: ${API_KEY}.` } });
    const error = await upstreamFailureToGatewayError(response, 'openai', API_KEY);
    expect(error.status).toBe(502);
    expect(error.kind).toBe('upstream');
    expect(error.code).toBe('provider_auth_failed');
    expect(error.message).toBe(
      `Provider "openai" rejected the project's credential (HTTP ${status}). An administrator must update it with "provider set".`,
    );
  });

  it('never puts the API key in a provider_auth_failed message, whatever the provider said', async () => {
    const response = new Response(`bad key ${API_KEY} / ${API_KEY.slice(0, 12)}`, { status: 401 });
    const error = await upstreamFailureToGatewayError(response, 'openai', API_KEY);
    expect(error.message).not.toContain(API_KEY);
    expect(error.message).not.toContain('Zq8XvN3k');
    expect(error.publicMessage).not.toContain(API_KEY);
  });

  it('keeps an upstream 429 as 429 upstream_rate_limited with its retry-after and the provider message', async () => {
    const response = new Response(readFixture('openai-chat/chat-error-429-rate-limit-exceeded-2024.json'), {
      status: 429,
      headers: { 'retry-after': '20' },
    });
    const error = await upstreamFailureToGatewayError(response, 'openai', API_KEY);
    expect(error.status).toBe(429);
    expect(error.kind).toBe('rate_limited');
    expect(error.code).toBe('upstream_rate_limited');
    expect(error.headers).toEqual({ 'retry-after': '20' });
    expect(error.message).toMatch(/^Provider "openai" is rate limiting requests: Rate limit reached for gpt-4o-mini in organization/);
  });

  it('tells an account without quota (OpenAI’s 429 insufficient_quota) from a rate limit: OpenAI’s type, the gateway’s code, and no retry', async () => {
    const response = new Response(readFixture('openai-responses/responses-error-429-insufficient-quota.json'), { status: 429 });
    const error = await upstreamFailureToGatewayError(response, 'openai', API_KEY);
    expect(error).toMatchObject({ status: 429, kind: 'payment_required', code: 'upstream_insufficient_quota', headers: { 'x-should-retry': 'false' } });
    expect(error.message).toMatch(/^Provider "openai" has no quota left \(an administrator must top up .*\): You exceeded your current quota/);
  });

  it('sends no retry-after when the upstream 429 had none', async () => {
    const error = await upstreamFailureToGatewayError(jsonError(429, { error: 'slow down' }), 'groq', API_KEY);
    expect(error.headers).toEqual({});
    expect(error.message).toBe('Provider "groq" is rate limiting requests: slow down');
  });

  it.each([500, 502, 503, 529])('turns an upstream %i into 502 upstream_error', async (status) => {
    const error = await upstreamFailureToGatewayError(jsonError(status, { error: { message: 'overloaded' } }), 'mistral', API_KEY);
    expect(error.status).toBe(502);
    expect(error.code).toBe('upstream_error');
    expect(error.message).toBe(`Provider "mistral" failed with HTTP ${status}: overloaded`);
  });

  it('redacts the key from a 5xx message that echoes it', async () => {
    const response = new Response(`internal failure for key ${API_KEY}`, { status: 500 });
    const error = await upstreamFailureToGatewayError(response, 'openai', API_KEY);
    expect(error.message).toBe('Provider "openai" failed with HTTP 500: internal failure for key [redacted]');
  });
});

describe('readUpstreamErrorMessage', () => {
  it('takes error.message from an OpenAI-style body', async () => {
    expect(await readUpstreamErrorMessage(jsonError(400, { error: { message: 'nope', type: 'x' } }), undefined)).toBe('nope');
  });

  it('takes error when it is a string', async () => {
    expect(await readUpstreamErrorMessage(jsonError(500, { error: 'flat' }), undefined)).toBe('flat');
  });

  it('takes a top-level message', async () => {
    expect(await readUpstreamErrorMessage(jsonError(500, { message: 'top' }), undefined)).toBe('top');
  });

  it('keeps a JSON body without a message as its text', async () => {
    expect(await readUpstreamErrorMessage(jsonError(500, { detail: 'x' }), undefined)).toBe('{"detail":"x"}');
  });

  it('keeps a plain text body, trimmed', async () => {
    expect(await readUpstreamErrorMessage(new Response('  no healthy upstream\n', { status: 503 }), undefined)).toBe('no healthy upstream');
  });

  it("keeps only the visible words of an HTML page (a proxy's), never its markup", async () => {
    const page = new Response(readFixture('other/nginx-502-bad-gateway.html'), { status: 502, headers: { 'content-type': 'text/html' } });
    expect(await readUpstreamErrorMessage(page, undefined)).toBe('502 Bad Gateway nginx');
  });

  it('says "HTTP <status>" for an empty body', async () => {
    expect(await readUpstreamErrorMessage(new Response('', { status: 503 }), undefined)).toBe('HTTP 503');
  });

  it('cuts a long message to 500 characters', async () => {
    const message = await readUpstreamErrorMessage(jsonError(500, { error: { message: 'x'.repeat(10_000) } }), undefined);
    expect(message).toBe('x'.repeat(500));
  });

  it('cuts a long text body to a short excerpt', async () => {
    const message = await readUpstreamErrorMessage(new Response('x'.repeat(10_000), { status: 500 }), undefined);
    expect(message).toBe(`${'x'.repeat(199)}…`);
  });

  it('says "HTTP <status>" when the body cannot be read', async () => {
    const broken = new ReadableStream<Uint8Array>({
      pull(controller) {
        controller.error(new Error('reset'));
      },
    });
    expect(await readUpstreamErrorMessage(new Response(broken, { status: 500 }), undefined)).toBe('HTTP 500');
  });
});

describe('readUpstreamErrorAnswer', () => {
  it('keeps a JSON error body as sent, whatever its content type says', async () => {
    const body = '{"error":{"message":"bad","type":"invalid_request_error"}}';
    const answer = await readUpstreamErrorAnswer(new Response(body, { status: 400, headers: { 'content-type': 'text/plain' } }), undefined);
    expect(answer).toMatchObject({ status: 400, contentType: 'text/plain', body });
  });

  it('keeps a body that is no JSON only as its excerpt, the provider key removed', async () => {
    const page = `<html><body><h1>Bad Request</h1><p>key sk&#45;${API_KEY.slice(3)} refused</p></body></html>`;
    const answer = await readUpstreamErrorAnswer(new Response(page, { status: 400, headers: { 'content-type': 'text/html' } }), API_KEY);
    expect(answer).toMatchObject({ status: 400, contentType: 'text/html', body: 'Bad Request key [redacted] refused' });
  });

  it('reads no more than the first 64 KB of a body, however large, and lets the rest go', async () => {
    const read = { bytes: 0, cancelled: false };
    const page = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (read.bytes >= 1024 * 1024) return controller.close();
        read.bytes += 16 * 1024;
        controller.enqueue(new TextEncoder().encode('{'.padEnd(16 * 1024, ' ')));
      },
      cancel() {
        read.cancelled = true;
      },
    });
    await readUpstreamErrorAnswer(new Response(page, { status: 500, headers: { 'content-type': 'application/json' } }), API_KEY);
    expect(read.cancelled).toBe(true);
    expect(read.bytes).toBeLessThanOrEqual(MAX_ERROR_BODY_BYTES + 2 * 16 * 1024);
  });
});

describe('redactSecrets', () => {
  it('replaces every occurrence of the project API key', () => {
    expect(redactSecrets(`a ${API_KEY} b ${API_KEY}`, API_KEY)).toBe('a [redacted] b [redacted]');
  });

  it('replaces a key of any shape, not only sk- keys', () => {
    expect(redactSecrets('key AIzaSyA1b2C3d4E5f6 refused', 'AIzaSyA1b2C3d4E5f6')).toBe('key [redacted] refused');
  });

  it.each([
    ['sk-proj-abcdefgh12345678', '[redacted]'],
    ['Incorrect API key provided: sk-abc12*********************xyz9.', 'Incorrect API key provided: [redacted].'],
    ['xai-ABCDEFGH12345 and gsk_abcdefgh123456 and pk-live_12345678', '[redacted] and [redacted] and [redacted]'],
    ['sk-ant-api03-AbCdEfGh', '[redacted]'],
    // A Bedrock error quoting the request's Authorization header: the role's access key id and the signature.
    [
      'Bad header: AWS4-HMAC-SHA256 Credential=AKIAQAFAKEKEY1234567/20261125/us-east-1/bedrock/aws4_request, SignedHeaders=host, Signature=' + 'ab12'.repeat(16),
      'Bad header: AWS4-HMAC-SHA256 Credential=[redacted]/20261125/us-east-1/bedrock/aws4_request, SignedHeaders=host, [redacted]',
    ],
    ['temporary ASIAQAFAKEKEY1234567 refused', 'temporary [redacted] refused'],
  ])('redacts the key-like pattern in %j', (text, expected) => {
    expect(redactSecrets(text, undefined)).toBe(expected);
  });

  it.each(['task-manager-12345678', 'sk-short', 'risk_of_rain', 'the sk is blue'])('leaves the ordinary text %j alone', (text) => {
    expect(redactSecrets(text, undefined)).toBe(text);
  });

  it('replaces each of several secrets, one that holds another whole', () => {
    expect(redactSecrets('sent "Bearer tok-12345678" = tok-12345678; x', ['tok-12345678', 'Bearer tok-12345678', ''])).toBe('sent "[redacted]" = [redacted]; x');
  });

  it('does nothing with an empty API key', () => {
    expect(redactSecrets('plain text', '')).toBe('plain text');
  });

  it('replaces the key in other letter cases and base64-encoded, alone or inside encoded data, in both alphabets', () => {
    const key = 'sk-PROVIDERSECRETKEY1234567890abcdefXYZ';
    const encoded = (text: string) => Buffer.from(text).toString('base64');
    for (const echoed of [key.toUpperCase(), key.toLowerCase(), encoded(key), encoded(`Bearer ${key}`), encoded(`x${key}`), encoded(`xy${key}`), encoded(`??${key}`).replaceAll('+', '-').replaceAll('/', '_')]) {
      const scrubbed = redactSecrets(`upstream said: ${echoed}.`, key);
      expect(scrubbed, echoed).toContain('[redacted]');
      // What is left decodes to nothing of the key: no run of it longer than a few characters.
      expect(Buffer.from(scrubbed.replace(/^upstream said: |\.$|\[redacted\]/g, ''), 'base64').toString('latin1')).not.toMatch(/SECRETKEY|secretkey/i);
      expect(scrubbed.toLowerCase()).not.toContain(key.toLowerCase());
    }
  });

  it('leaves an error’s words whole for a placeholder key too short to be a secret (a local server’s "x")', () => {
    const body = '{"error":{"code":"context_length_exceeded","message":"This model\'s maximum context length is exceeded."}}';
    expect(redactSecrets(body, 'x')).toBe(body);
    expect(redactSecrets(body, ['local', 'x'])).toBe(body);
  });

  it('never leaves a base62 key in the text, wherever it appears', () => {
    const base62 = fc.constantFrom(...'0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz');
    const key = fc.array(base62, { minLength: 20, maxLength: 60 }).map((chars) => chars.join(''));
    fc.assert(
      fc.property(key, fc.array(fc.string(), { minLength: 1, maxLength: 5 }), (apiKey, pieces) => {
        const text = pieces.join(apiKey);
        expect(redactSecrets(text, apiKey)).not.toContain(apiKey);
      }),
    );
  });
});

describe('isGatewaySideUpstreamStatus', () => {
  it.each([301, 302, 307, 308, 401, 403, 408, 429, 500, 502, 503, 504])('counts %i as the gateway side', (status) => {
    expect(isGatewaySideUpstreamStatus(status)).toBe(true);
  });

  it.each([400, 404, 409, 413, 422])('counts %i as the client side', (status) => {
    expect(isGatewaySideUpstreamStatus(status)).toBe(false);
  });
});

describe('an upstream 408', () => {
  it("is the provider's time-out (502 upstream_timeout), never relayed as the client's own slow request", async () => {
    const error = await upstreamFailureToGatewayError(jsonError(408, { error: { message: 'Request timed out.', type: 'timeout' } }), 'acme', undefined);
    expect(error.status).toBe(502);
    expect(error.code).toBe('upstream_timeout');
    expect(error.message).toBe('Provider "acme" timed out (HTTP 408): Request timed out.');
  });
});

describe('an upstream redirect', () => {
  it('is a 502 upstream failure that says to check the base URL, never passed on to the client', async () => {
    const error = await upstreamFailureToGatewayError(new Response('<html>moved</html>', { status: 302, headers: { 'content-type': 'text/html' } }), 'acme', undefined);
    expect(error.status).toBe(502);
    expect(error.code).toBe('upstream_redirected');
    expect(error.message).toContain('check its base URL');
  });
});
