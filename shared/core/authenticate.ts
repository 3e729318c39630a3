import { GatewayError } from './errors.ts';
import type { KeyRecord } from './key-record.ts';
import { hashProjectKey, isWellFormedProjectKey } from './project-keys.ts';

/** Finds a key record by hash; cached by the caller. */
export type KeyLookup = (keyHash: string) => Promise<KeyRecord | undefined>;

function invalidKey(message: string): GatewayError {
  return new GatewayError('authentication', message, { code: 'invalid_api_key' });
}

/**
 * Takes the project key from `Authorization: Bearer gw.…` or, as the messages-style clients send it,
 * `x-api-key`. Provider keys (`sk-…`) are refused: applications must never send them to the gateway.
 */
export function extractProjectKey(headers: Readonly<Record<string, string | undefined>>): string {
  const authorization = headers['authorization']?.trim();
  const bearer = authorization?.match(/^Bearer\s+(\S+)$/i)?.[1];
  const candidate = bearer ?? headers['x-api-key']?.trim();
  if (!candidate) {
    // An Authorization header that is not one bearer token (two keys joined by a repeated header, another scheme).
    if (authorization) throw invalidKey('Malformed Authorization header: send one project key as "Authorization: Bearer gw.…".');
    throw invalidKey('Missing project key. Send it as "Authorization: Bearer gw.…" (or "x-api-key: gw.…", as Anthropic\'s SDKs do).');
  }
  if (!candidate.startsWith('gw.')) {
    throw invalidKey('This is not a gateway project key. Project keys begin with "gw."; do not send provider API keys to the gateway.');
  }
  return candidate;
}

/** Resolves the key to its record, refusing malformed, unknown and revoked keys alike with 401. */
export async function authenticateProjectKey(key: string, findKey: KeyLookup): Promise<KeyRecord> {
  if (!isWellFormedProjectKey(key)) throw invalidKey('Invalid project key.');
  const record = await findKey(hashProjectKey(key));
  if (!record) throw invalidKey('Invalid project key.');
  if (record.revokedAt) throw invalidKey('This project key has been revoked.');
  return record;
}
