import { createHash } from 'node:crypto';
import type { Clock, RandomBytes } from '../../core/ports.ts';
import { randomBase62 } from '../../core/project-keys.ts';
import { bearerToken, notSignedIn, type ConsoleAuthenticator, type ConsoleIdentity, type SignInCodeExchange } from '../../console/console-identity.ts';

export interface LocalConsoleSessionOptions {
  clock: Clock;
  randomBytes: RandomBytes;
  /** How long a printed sign-in link stays usable (once). */
  codeTtlMs: number;
  /** How long a session lasts, from sign-in; there is no renewal. */
  sessionTtlMs: number;
}

interface Grant {
  member: string;
  expiresAt: number;
}

const hash = (secret: string) => createHash('sha256').update(secret).digest('hex');

/**
 * The local host's sign-in: `npm start` prints a link holding a one-time code (in the URL fragment, so it
 * reaches no server log); the page exchanges it for a session token it sends as a bearer header. Codes and
 * sessions live in this process only, stored by their SHA-256; a restart signs everyone out.
 */
export class LocalConsoleSessions implements ConsoleAuthenticator, SignInCodeExchange {
  private readonly codes = new Map<string, Grant>();
  private readonly sessions = new Map<string, Grant>();

  private readonly options: LocalConsoleSessionOptions;

  constructor(options: LocalConsoleSessionOptions) {
    this.options = options;
  }

  /** A code that signs `member` in once, within the code's lifetime. */
  issueSignInCode(member: string): string {
    const code = randomBase62(32, this.options.randomBytes);
    this.codes.set(hash(code), { member: member.toLowerCase(), expiresAt: this.options.clock.now() + this.options.codeTtlMs });
    return code;
  }

  redeem(code: string): { token: string; member: string; expiresAt: number } {
    const grant = this.codes.get(hash(code));
    this.codes.delete(hash(code));
    if (!grant || grant.expiresAt <= this.options.clock.now()) {
      throw notSignedIn('This sign-in link was already used or has expired: restart "npm start" for a new one.');
    }
    const token = randomBase62(43, this.options.randomBytes);
    const session = { member: grant.member, expiresAt: this.options.clock.now() + this.options.sessionTtlMs };
    this.sessions.set(hash(token), session);
    return { token, ...session };
  }

  signOut(token: string): void {
    this.sessions.delete(hash(token));
  }

  async identify(authorization: string | undefined): Promise<ConsoleIdentity> {
    const key = hash(bearerToken(authorization));
    const session = this.sessions.get(key);
    if (!session) throw notSignedIn();
    if (session.expiresAt <= this.options.clock.now()) {
      this.sessions.delete(key);
      throw notSignedIn('Your session has expired: sign in again.');
    }
    return { member: session.member, expiresAt: session.expiresAt };
  }
}
