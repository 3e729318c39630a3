import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { LocalConsoleSessions } from '../../../shared/adapters/local/local-console-sessions.ts';

function sessions() {
  let now = 1_000_000;
  const store = new LocalConsoleSessions({ clock: { now: () => now }, randomBytes: (size) => randomBytes(size), codeTtlMs: 60_000, sessionTtlMs: 600_000 });
  return { store, advance: (ms: number) => (now += ms), now: () => now };
}

describe('LocalConsoleSessions', () => {
  it('exchanges a one-time code for a session of the member it was issued to, in lower case', async () => {
    const { store, now } = sessions();
    const code = store.issueSignInCode('Alice@Example.com');

    const session = store.redeem(code);

    expect(session).toEqual({ token: expect.stringMatching(/^[0-9A-Za-z]{43}$/), member: 'alice@example.com', expiresAt: now() + 600_000 });
    await expect(store.identify(`Bearer ${session.token}`)).resolves.toEqual({ member: 'alice@example.com', expiresAt: session.expiresAt });
  });

  it('accepts a code once only', () => {
    const { store } = sessions();
    const code = store.issueSignInCode('alice@example.com');
    store.redeem(code);
    expect(() => store.redeem(code)).toThrow(expect.objectContaining({ status: 401 }));
  });

  it('refuses a code after its lifetime', () => {
    const { store, advance } = sessions();
    const code = store.issueSignInCode('alice@example.com');
    advance(60_000);
    expect(() => store.redeem(code)).toThrow(/already used or has expired/);
  });

  it('ends a session at its expiry and on sign-out', async () => {
    const { store, advance } = sessions();
    const first = store.redeem(store.issueSignInCode('alice@example.com'));
    const second = store.redeem(store.issueSignInCode('alice@example.com'));

    store.signOut(second.token);
    await expect(store.identify(`Bearer ${second.token}`)).rejects.toMatchObject({ status: 401, code: 'not_signed_in' });
    advance(599_999);
    await expect(store.identify(`Bearer ${first.token}`)).resolves.toMatchObject({ member: 'alice@example.com' });
    advance(1);
    await expect(store.identify(`Bearer ${first.token}`)).rejects.toThrow('Your session has expired: sign in again.');
  });

  it.each([undefined, '', 'Basic abc', 'Bearer ', 'Bearer unknown-token'])('refuses the authorization %j', async (authorization) => {
    const { store } = sessions();
    await expect(store.identify(authorization)).rejects.toMatchObject({ status: 401 });
  });
});
