import { pkceChallenge, randomUrlSafe } from './pkce.ts';
import { newSession, type Session } from './session.ts';
import type { ConsoleSiteConfig } from './site-config.ts';

type CognitoConfig = Extract<ConsoleSiteConfig, { signIn: 'cognito' }>;
const PENDING_KEY = 'gateway-console-sign-in';

/** Where Cognito sends people back: this page, without query or fragment. */
function redirectUri(): string {
  return `${location.origin}${location.pathname}`;
}

/** Cognito: to the hosted sign-in page, authorization code flow with PKCE (S256) and a state. */
export async function startCognitoSignIn(config: CognitoConfig): Promise<void> {
  const verifier = randomUrlSafe(48);
  const state = randomUrlSafe(16);
  sessionStorage.setItem(PENDING_KEY, JSON.stringify({ verifier, state }));
  const query = new URLSearchParams({
    response_type: 'code',
    client_id: config.clientId,
    redirect_uri: redirectUri(),
    scope: 'openid email',
    state,
    code_challenge_method: 'S256',
    code_challenge: await pkceChallenge(verifier),
  });
  location.assign(`${config.signInOrigin}/oauth2/authorize?${query}`);
}

/** Cognito's return (`?code=…&state=…`): the code and the verifier buy an ID token at the token endpoint. */
export async function completeCognitoSignIn(config: CognitoConfig, code: string, state: string): Promise<Session> {
  const pending = JSON.parse(sessionStorage.getItem(PENDING_KEY) ?? 'null') as { verifier: string; state: string } | null;
  sessionStorage.removeItem(PENDING_KEY);
  if (!pending || pending.state !== state) throw new Error('This sign-in did not start here: sign in again.');
  const response = await fetch(`${config.signInOrigin}/oauth2/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ grant_type: 'authorization_code', client_id: config.clientId, code, redirect_uri: redirectUri(), code_verifier: pending.verifier }),
  });
  if (!response.ok) throw new Error(`Sign-in failed (${response.status}): sign in again.`);
  const tokens = (await response.json()) as { id_token: string; expires_in: number };
  return sessionFromIdToken(tokens.id_token, tokens.expires_in, Date.now());
}

/** The session an ID token opens: its `email` claim names the person (the API checks the token itself). */
export function sessionFromIdToken(idToken: string, expiresInSeconds: number, now: number): Session {
  // atob gives one character per byte: the claims are UTF-8 (an e-mail may hold é or ü), so decode the bytes.
  const payload = atob(idToken.split('.')[1]?.replaceAll('-', '+').replaceAll('_', '/') ?? '');
  const claims = JSON.parse(new TextDecoder().decode(Uint8Array.from(payload, (char) => char.charCodeAt(0)))) as { email?: string };
  return newSession(idToken, claims.email ?? '', now + expiresInSeconds * 1000);
}

/** Cognito's sign-out page ends its own session too, then comes back here. */
export function cognitoSignOutUrl(config: CognitoConfig): string {
  return `${config.signInOrigin}/logout?${new URLSearchParams({ client_id: config.clientId, logout_uri: redirectUri() })}`;
}

/** Local host: the one-time code of the link `npm start` printed, exchanged for a session. */
export async function redeemLocalSignInCode(code: string): Promise<Session> {
  const response = await fetch('api/session', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ code }) });
  const answer = (await response.json()) as { token?: string; member?: string; expires_at?: string; error?: { message: string } };
  if (!response.ok || !answer.token || !answer.member || !answer.expires_at) throw new Error(answer.error?.message ?? `Sign-in failed (${response.status}).`);
  return newSession(answer.token, answer.member, Date.parse(answer.expires_at));
}

export async function endLocalSession(token: string): Promise<void> {
  await fetch('api/session', { method: 'DELETE', headers: { authorization: `Bearer ${token}` } }).catch(() => undefined);
}
