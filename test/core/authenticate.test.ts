import { describe, expect, it } from 'vitest';
import { gatewayErrorThrownBy as thrown } from '../support/gateway-error-thrown.ts';
import { authenticateProjectKey, extractProjectKey, type KeyLookup } from '../../shared/core/authenticate.ts';
import { GatewayError } from '../../shared/core/errors.ts';
import type { KeyRecord } from '../../shared/core/key-record.ts';
import { hashProjectKey } from '../../shared/core/project-keys.ts';

const KEY = `gw.${'K7'.repeat(21)}q`;

function recordFor(key: string, revokedAt?: string): KeyRecord {
  return {
    keyHash: hashProjectKey(key),
    keyId: 'key_0123456789abcdef',
    projectId: 'demo',
    name: 'ci',
    hint: 'gw.K7K7…7K7q',
    createdAt: '2025-01-01T00:00:00.000Z',
    ...(revokedAt ? { revokedAt } : {}),
  };
}

/** A key store holding the given records, recording every hash it is asked for. */
function storeOf(...records: KeyRecord[]): { lookup: KeyLookup; asked: string[] } {
  const asked: string[] = [];
  const lookup: KeyLookup = async (keyHash) => {
    asked.push(keyHash);
    return records.find((record) => record.keyHash === keyHash);
  };
  return { lookup, asked };
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


describe('extractProjectKey', () => {
  it('takes the key from "Authorization: Bearer"', () => {
    expect(extractProjectKey({ authorization: `Bearer ${KEY}` })).toBe(KEY);
  });

  it('accepts the bearer scheme in any case and with surrounding whitespace', () => {
    expect(extractProjectKey({ authorization: `  bearer   ${KEY}  ` })).toBe(KEY);
  });

  it('falls back to x-api-key as messages-style clients send it', () => {
    expect(extractProjectKey({ 'x-api-key': ` ${KEY} ` })).toBe(KEY);
  });

  it('prefers the bearer token over x-api-key', () => {
    expect(extractProjectKey({ authorization: `Bearer ${KEY}`, 'x-api-key': 'gw.other' })).toBe(KEY);
  });

  it('refuses a request without a key with 401 invalid_api_key', () => {
    const error = thrown(() => extractProjectKey({}));
    expect(error.status).toBe(401);
    expect(error.code).toBe('invalid_api_key');
    expect(error.message).toBe('Missing project key. Send it as "Authorization: Bearer gw.…" (or "x-api-key: gw.…", as Anthropic\'s SDKs do).');
  });

  it('says so when the Authorization header is not one bearer token: another scheme, or two keys of a repeated header', () => {
    for (const authorization of ['Basic dXNlcjpwYXNz', `Bearer ${KEY},Bearer ${KEY}`]) {
      const error = thrown(() => extractProjectKey({ authorization }));
      expect(error.status).toBe(401);
      expect(error.message).toBe('Malformed Authorization header: send one project key as "Authorization: Bearer gw.…".');
    }
  });

  it('refuses a provider key with 401 and tells the client not to send it', () => {
    const error = thrown(() => extractProjectKey({ authorization: 'Bearer sk-proj-abcdefghijkl' }));
    expect(error.status).toBe(401);
    expect(error.code).toBe('invalid_api_key');
    expect(error.message).toContain('do not send provider API keys');
    expect(error.message).not.toContain('sk-proj-abcdefghijkl');
  });
});

describe('authenticateProjectKey', () => {
  it('returns the record stored under the hash of the key', async () => {
    const record = recordFor(KEY);
    const store = storeOf(record);
    await expect(authenticateProjectKey(KEY, store.lookup)).resolves.toBe(record);
    expect(store.asked).toEqual([hashProjectKey(KEY)]);
  });

  it('refuses a malformed key with 401 before any store read', async () => {
    const store = storeOf(recordFor('gw.short'));
    const error = await rejection(authenticateProjectKey('gw.short', store.lookup));
    expect(error.status).toBe(401);
    expect(error.code).toBe('invalid_api_key');
    expect(error.message).toBe('Invalid project key.');
    expect(store.asked).toEqual([]);
  });

  it('refuses an unknown key with the same 401 as a malformed one', async () => {
    const error = await rejection(authenticateProjectKey(KEY, storeOf().lookup));
    expect(error.status).toBe(401);
    expect(error.code).toBe('invalid_api_key');
    expect(error.message).toBe('Invalid project key.');
  });

  it('refuses a revoked key with 401 and says it was revoked', async () => {
    const store = storeOf(recordFor(KEY, '2025-02-01T00:00:00.000Z'));
    const error = await rejection(authenticateProjectKey(KEY, store.lookup));
    expect(error.status).toBe(401);
    expect(error.code).toBe('invalid_api_key');
    expect(error.message).toBe('This project key has been revoked.');
  });

  it('lets a store failure through unchanged for the caller to turn into 503', async () => {
    const failure = new Error('ProvisionedThroughputExceededException');
    const failing: KeyLookup = async () => {
      throw failure;
    };
    await expect(authenticateProjectKey(KEY, failing)).rejects.toBe(failure);
  });
});
