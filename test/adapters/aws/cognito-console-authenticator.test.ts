import { createSign, generateKeyPairSync, type KeyObject } from 'node:crypto';
import { CognitoJwtVerifier } from 'aws-jwt-verify';
import { describe, expect, it } from 'vitest';
import { CognitoConsoleAuthenticator } from '../../../shared/adapters/aws/cognito-console-authenticator.ts';

const USER_POOL_ID = 'us-east-1_TestPool1';
const CLIENT_ID = 'console-client-id';
const ISSUER = `https://cognito-idp.us-east-1.amazonaws.com/${USER_POOL_ID}`;

const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
const other = generateKeyPairSync('rsa', { modulusLength: 2048 });

function base64url(value: string | Buffer): string {
  return Buffer.from(value).toString('base64url');
}

/** An RS256 JWT as Cognito issues ID tokens, signed with `key`. */
function idToken(claims: Record<string, unknown>, key: KeyObject = privateKey): string {
  const now = Math.floor(Date.now() / 1000);
  const header = base64url(JSON.stringify({ alg: 'RS256', kid: 'test-key', typ: 'JWT' }));
  const payload = base64url(
    JSON.stringify({ iss: ISSUER, aud: CLIENT_ID, token_use: 'id', sub: 'user-1', iat: now, exp: now + 3600, email: 'Alice@Example.com', email_verified: true, ...claims }),
  );
  const signature = createSign('RSA-SHA256').update(`${header}.${payload}`).sign(key);
  return `${header}.${payload}.${base64url(signature)}`;
}

/** The real verifier of aws-jwt-verify, with the pool's key set given instead of fetched. */
function authenticator(): CognitoConsoleAuthenticator {
  const verifier = CognitoJwtVerifier.create({ userPoolId: USER_POOL_ID, tokenUse: 'id', clientId: CLIENT_ID });
  verifier.cacheJwks({ keys: [{ ...publicKey.export({ format: 'jwk' }), kid: 'test-key', alg: 'RS256', use: 'sig' }] } as Parameters<typeof verifier.cacheJwks>[0]);
  return new CognitoConsoleAuthenticator((token) => verifier.verify(token));
}

describe('CognitoConsoleAuthenticator', () => {
  it("names the person by their verified e-mail, in lower case, until the token's expiry", async () => {
    const exp = Math.floor(Date.now() / 1000) + 1800;
    await expect(authenticator().identify(`Bearer ${idToken({ exp })}`)).resolves.toEqual({ member: 'alice@example.com', expiresAt: exp * 1000 });
  });

  it.each([
    ['an expired token', { exp: Math.floor(Date.now() / 1000) - 10 }],
    ['a token of another app client', { aud: 'another-client' }],
    ['a token of another pool', { iss: 'https://cognito-idp.us-east-1.amazonaws.com/us-east-1_Other' }],
    ['an access token', { token_use: 'access' }],
  ])('refuses %s with 401', async (_what, claims) => {
    await expect(authenticator().identify(`Bearer ${idToken(claims)}`)).rejects.toMatchObject({ status: 401, code: 'not_signed_in' });
  });

  it('refuses a token signed with another key', async () => {
    await expect(authenticator().identify(`Bearer ${idToken({}, other.privateKey)}`)).rejects.toMatchObject({ status: 401 });
  });

  it('refuses a person whose e-mail address is not verified', async () => {
    await expect(authenticator().identify(`Bearer ${idToken({ email_verified: false })}`)).rejects.toThrow(/no verified e-mail/);
  });

  it('refuses a request without a bearer token', async () => {
    await expect(authenticator().identify(undefined)).rejects.toMatchObject({ status: 401 });
  });
});
