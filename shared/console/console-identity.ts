import { GatewayError } from '../core/errors.ts';

/** A person signed in to the console: their member id (e-mail) and when their session ends (ms since the epoch). */
export interface ConsoleIdentity {
  member: string;
  expiresAt: number;
}

/**
 * Tells who sent a console API request, from its `Authorization: Bearer …` header: a Cognito ID token in
 * AWS, a one-time-link session on the local host. Throws a 401 GatewayError for anything else.
 */
export interface ConsoleAuthenticator {
  identify(authorization: string | undefined): Promise<ConsoleIdentity>;
}

/** Local sign-in only: a one-time code from the link `npm start` prints, exchanged for a session token. */
export interface SignInCodeExchange {
  redeem(code: string): { token: string; member: string; expiresAt: number };
  signOut(token: string): void;
}

export function notSignedIn(message = 'Sign in to use the console.'): GatewayError {
  return new GatewayError('authentication', message, { code: 'not_signed_in' });
}

/** The token of `Authorization: Bearer <token>`; 401 when there is none. */
export function bearerToken(authorization: string | undefined): string {
  const token = authorization?.trim().match(/^Bearer\s+(\S+)$/i)?.[1];
  if (!token) throw notSignedIn();
  return token;
}
