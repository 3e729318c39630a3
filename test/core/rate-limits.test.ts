import { describe, expect, it } from 'vitest';
import { GatewayError } from '../../shared/core/errors.ts';
import type { KeyRecord } from '../../shared/core/key-record.ts';
import type { Project } from '../../shared/core/project-config.ts';
import { limitChargesFor, rateLimited, rateLimitHeaders, tokenCountChargesFor, WINDOW_MS } from '../../shared/core/rate-limits.ts';

const key: KeyRecord = { keyHash: 'a'.repeat(64), keyId: 'key_abc', projectId: 'acme', name: 'default', hint: 'gw.…abcd', createdAt: '2025-03-01T10:00:00.000Z' };
const project: Project = {
  projectId: 'acme',
  name: 'Acme',
  plan: 'active',
  usageInjection: false,
  failover: false,
  mcp: false,
  createdAt: '2025-03-01T10:00:00.000Z',
  updatedAt: '2025-03-01T10:00:00.000Z',
};

// 29,588,760 minutes after the epoch, 15.2 s into the minute.
const window = 29_588_760;
const now = window * WINDOW_MS + 15_200;
const windowEndsAt = (window + 1) * WINDOW_MS;

describe('limitChargesFor', () => {
  it('builds no charge when neither the key nor the project has a limit', () => {
    expect(limitChargesFor(key, project, 500, now)).toEqual([]);
  });

  it('charges one request to the key, one to the project and the estimated tokens to the project, in the current minute', () => {
    const charges = limitChargesFor({ ...key, rpm: 5 }, { ...project, rpm: 100, tpm: 10_000 }, 1_234, now);

    expect(charges).toEqual([
      expect.objectContaining({ counterKey: `rpm#key#key_abc#${window}`, limit: 5, amount: 1, windowEndsAt, kind: 'requests' }),
      expect.objectContaining({ counterKey: `rpm#project#acme#${window}`, limit: 100, amount: 1, windowEndsAt, kind: 'requests' }),
      expect.objectContaining({ counterKey: `tpm#project#acme#${window}`, limit: 10_000, amount: 1_234, windowEndsAt, kind: 'tokens' }),
    ]);
  });

  it('builds only the limits that are set', () => {
    expect(limitChargesFor({ ...key, rpm: 5 }, project, 10, now).map((charge) => charge.counterKey)).toEqual([`rpm#key#key_abc#${window}`]);
    expect(limitChargesFor(key, { ...project, tpm: 50 }, 10, now).map((charge) => charge.counterKey)).toEqual([`tpm#project#acme#${window}`]);
  });

  it('charges at least one token for an empty estimate', () => {
    expect(limitChargesFor(key, { ...project, tpm: 50 }, 0, now)[0]?.amount).toBe(1);
  });

  it('moves to a new counter when the minute changes', () => {
    const [before] = limitChargesFor(key, { ...project, rpm: 1 }, 1, windowEndsAt - 1);
    const [after] = limitChargesFor(key, { ...project, rpm: 1 }, 1, windowEndsAt);

    expect(before?.counterKey).toBe(`rpm#project#acme#${window}`);
    expect(after?.counterKey).toBe(`rpm#project#acme#${window + 1}`);
    expect(after?.windowEndsAt).toBe(windowEndsAt + WINDOW_MS);
  });
});

describe('tokenCountChargesFor', () => {
  it("charges one request to the key's and the project's limits in counters of their own, and no tokens", () => {
    const charges = tokenCountChargesFor({ ...key, rpm: 5 }, { ...project, rpm: 100, tpm: 10_000 }, now);

    expect(charges).toEqual([
      expect.objectContaining({ counterKey: `count-rpm#key#key_abc#${window}`, limit: 5, amount: 1, windowEndsAt, kind: 'requests', label: 'count_tokens requests per minute of this key' }),
      expect.objectContaining({ counterKey: `count-rpm#project#acme#${window}`, limit: 100, amount: 1, windowEndsAt, kind: 'requests' }),
    ]);
  });

  it('counts the Responses input_tokens in the same counters, named after it', () => {
    const charges = tokenCountChargesFor({ ...key, rpm: 5 }, project, now, 'input_tokens');
    expect(charges).toEqual([expect.objectContaining({ counterKey: `count-rpm#key#key_abc#${window}`, label: 'input_tokens requests per minute of this key' })]);
  });
});

describe('rateLimitHeaders', () => {
  const charges = limitChargesFor({ ...key, rpm: 5 }, { ...project, rpm: 100, tpm: 10_000 }, 1_000, now);

  it('reports the tightest request limit and the token limit with the seconds to the window end', () => {
    // The key has 5 - 4 = 1 request left, the project 100 - 10 = 90: the key's limit is the tightest.
    expect(rateLimitHeaders(charges, [4, 10, 3_000], now)).toEqual({
      'x-ratelimit-limit-requests': '5',
      'x-ratelimit-remaining-requests': '1',
      'x-ratelimit-reset-requests': '45s',
      'x-ratelimit-limit-tokens': '10000',
      'x-ratelimit-remaining-tokens': '7000',
      'x-ratelimit-reset-tokens': '45s',
    });
  });

  it('picks the project limit when it has fewer requests left than the key', () => {
    const headers = rateLimitHeaders(charges, [1, 99, 3_000], now);

    expect(headers['x-ratelimit-limit-requests']).toBe('100');
    expect(headers['x-ratelimit-remaining-requests']).toBe('1');
  });

  it('never reports a negative remainder and at least one second to reset', () => {
    const headers = rateLimitHeaders(charges, [9, 10, 20_000], windowEndsAt - 10);

    expect(headers['x-ratelimit-remaining-requests']).toBe('0');
    expect(headers['x-ratelimit-remaining-tokens']).toBe('0');
    expect(headers['x-ratelimit-reset-requests']).toBe('1s');
  });

  it('sends no token headers when only requests are limited, and none at all without limits', () => {
    const requestsOnly = limitChargesFor(key, { ...project, rpm: 10 }, 100, now);

    expect(Object.keys(rateLimitHeaders(requestsOnly, [3], now))).toEqual([
      'x-ratelimit-limit-requests',
      'x-ratelimit-remaining-requests',
      'x-ratelimit-reset-requests',
    ]);
    expect(rateLimitHeaders([], [], now)).toEqual({});
  });
});

describe('rateLimited', () => {
  const charges = limitChargesFor({ ...key, rpm: 5 }, { ...project, rpm: 100, tpm: 10_000 }, 1_000, now);

  it('answers 429 requests_rate_limited with Retry-After until the window ends', () => {
    const error = rateLimited({ allowed: false, refusedIndex: 0 }, charges, now);

    expect(error).toBeInstanceOf(GatewayError);
    expect(error.status).toBe(429);
    expect(error.code).toBe('requests_rate_limited');
    expect(error.message).toBe('Rate limit reached: 5 requests per minute of this key. Retry after 45 s.');
    expect(error.headers).toEqual({
      'retry-after': '45',
      'x-ratelimit-limit-requests': '5',
      'x-ratelimit-remaining-requests': '0',
      'x-ratelimit-reset-requests': '45s',
    });
  });

  it('names the project limit when the project refused', () => {
    const error = rateLimited({ allowed: false, refusedIndex: 1 }, charges, now);

    expect(error.message).toMatch(/100 requests per minute of this project/);
    expect(error.headers['x-ratelimit-limit-requests']).toBe('100');
  });

  it('answers tokens_rate_limited with the token headers when the token limit refused', () => {
    const error = rateLimited({ allowed: false, refusedIndex: 2 }, charges, windowEndsAt - 200);

    expect(error.status).toBe(429);
    expect(error.code).toBe('tokens_rate_limited');
    expect(error.headers).toEqual({
      'retry-after': '1',
      'x-ratelimit-limit-tokens': '10000',
      'x-ratelimit-remaining-tokens': '0',
      'x-ratelimit-reset-tokens': '1s',
    });
  });

  it('says so when one request alone needs more tokens than the limit allows', () => {
    const tooLarge = limitChargesFor(key, { ...project, tpm: 1_000 }, 4_500, now);

    const error = rateLimited({ allowed: false, refusedIndex: 0 }, tooLarge, now);

    expect(error.code).toBe('tokens_rate_limited');
    expect(error.message).toBe('This request needs about 4500 tokens, more than the 1000 tokens per minute of this project allows.');
    // It can never pass: no time to retry after, and no remaining count it did not read.
    expect(error.headers).toEqual({ 'x-ratelimit-limit-tokens': '1000' });
  });

  it('says a batch of calls counts as that many requests when it alone is more than requests per minute allows', () => {
    const batch = limitChargesFor({ ...key, rpm: 2 }, project, 0, now).map((charge) => ({ ...charge, amount: 3 }));

    const error = rateLimited({ allowed: false, refusedIndex: 0 }, batch, now);

    expect(error.code).toBe('requests_rate_limited');
    expect(error.message).toMatch(/^This request counts as 3 requests \(a batch of calls\), more than the 2 requests per minute/);
    expect(error.headers).toEqual({ 'x-ratelimit-limit-requests': '2' });
  });
});
