import { describe, expect, it } from 'vitest';
import { sessionFromIdToken } from '../../../../web/console/app/sign-in.ts';

/** An unsigned token with these claims: the page reads the claims only, the API verifies the signature. */
function idToken(claims: Record<string, unknown>): string {
  const encode = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
  return `${encode({ alg: 'RS256' })}.${encode(claims)}.signature`;
}

describe("the console page's Cognito session", () => {
  it('names the person by their e-mail in lower case, as the API names members, whatever case they typed', () => {
    const token = idToken({ email: 'Alice.Smith@Example.COM', email_verified: true });

    const session = sessionFromIdToken(token, 3600, Date.parse('2025-01-02T03:00:00.000Z'));

    expect(session).toEqual({ token, member: 'alice.smith@example.com', expiresAt: Date.parse('2025-01-02T04:00:00.000Z') });
  });

  it('reads an e-mail with letters beyond ASCII as the person typed it, not as its UTF-8 bytes', () => {
    const session = sessionFromIdToken(idToken({ email: 'Zoë.Müller@example.com' }), 3600, 0);

    expect(session.member).toBe('zoë.müller@example.com');
  });
});
