import { randomBytes } from 'node:crypto';
import { LocalConsoleSessions } from '../../shared/adapters/local/local-console-sessions.ts';

/** How long a sign-in link printed by `npm start` stays usable (once), and how long its session lasts. */
export const LOCAL_SIGN_IN_LINK_TTL_MS = 24 * 60 * 60_000;
export const LOCAL_CONSOLE_SESSION_TTL_MS = 8 * 60 * 60_000;

/**
 * With GATEWAY_CONSOLE_SIGN_IN=local (the local host), the console function and the host share these
 * sessions: the host issues the one-time codes it prints, the function redeems and checks them.
 */
export const inProcessConsoleSessions = new LocalConsoleSessions({
  clock: { now: () => Date.now() },
  randomBytes: (size) => randomBytes(size),
  codeTtlMs: LOCAL_SIGN_IN_LINK_TTL_MS,
  sessionTtlMs: LOCAL_CONSOLE_SESSION_TTL_MS,
});
