/**
 * The signed-in session: a bearer token (a Cognito ID token, or a local session token) and its expiry.
 * Kept in localStorage so tabs share it, sent only as an Authorization header (no cookie, so no CSRF), and
 * dropped when it expires, on sign-out and on any 401.
 */
export interface Session {
  token: string;
  member: string;
  /** Milliseconds since the epoch. */
  expiresAt: number;
}

const STORAGE_KEY = 'gateway-console-session';

/**
 * A session for `member` as the API names people: member ids compare case-insensitively and the API gives
 * them in lower case, so a Cognito e-mail typed with capitals must not make the person's own keys and
 * membership look like someone else's.
 */
export function newSession(token: string, member: string, expiresAt: number): Session {
  return { token, member: member.toLowerCase(), expiresAt };
}

export function loadSession(now = Date.now()): Session | undefined {
  try {
    const stored = JSON.parse(localStorage.getItem(STORAGE_KEY) ?? 'null') as Partial<Session> | null;
    if (stored && typeof stored.token === 'string' && typeof stored.member === 'string' && typeof stored.expiresAt === 'number' && stored.expiresAt > now) {
      return newSession(stored.token, stored.member, stored.expiresAt);
    }
  } catch {
    // A damaged entry is no session.
  }
  localStorage.removeItem(STORAGE_KEY);
  return undefined;
}

export function saveSession(session: Session): void {
  localStorage.setItem(STORAGE_KEY, JSON.stringify(session));
}

/**
 * Calls back when another tab of the console ends the session (the storage event fires in the others):
 * `signedOut` when it was signed out there, false when that tab found it expired.
 */
export function whenSessionEndsElsewhere(callback: (signedOut: boolean) => void): void {
  window.addEventListener('storage', (event) => {
    if (event.key !== STORAGE_KEY || event.newValue !== null) return;
    let expiresAt = 0;
    try {
      expiresAt = Number((JSON.parse(event.oldValue ?? 'null') as Partial<Session> | null)?.expiresAt ?? 0);
    } catch {
      // A damaged entry ended as an expired one does.
    }
    callback(expiresAt > Date.now());
  });
}

export function clearSession(): void {
  localStorage.removeItem(STORAGE_KEY);
}
