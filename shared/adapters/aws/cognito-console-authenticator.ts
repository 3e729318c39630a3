import { CognitoJwtVerifier } from 'aws-jwt-verify';
import { bearerToken, notSignedIn, type ConsoleAuthenticator, type ConsoleIdentity } from '../../console/console-identity.ts';

/** The claims the console reads from a verified Cognito ID token. */
export interface VerifiedIdToken {
  email?: unknown;
  email_verified?: unknown;
  exp: number;
}

/** Verifies a token's signature, issuer, audience, use and expiry; throws when any is wrong. */
export type IdTokenVerifier = (token: string) => Promise<VerifiedIdToken>;

export interface CognitoSignInSettings {
  userPoolId: string;
  clientId: string;
}

/** aws-jwt-verify's verifier for the pool's ID tokens issued to the console's app client (JWKS fetched once, cached). */
export function cognitoIdTokenVerifier(settings: CognitoSignInSettings): IdTokenVerifier {
  const verifier = CognitoJwtVerifier.create({ userPoolId: settings.userPoolId, tokenUse: 'id', clientId: settings.clientId });
  return (token) => verifier.verify(token);
}

/**
 * The console in AWS: people sign in on the user pool's hosted pages (authorization code with PKCE) and the
 * page sends the ID token as a bearer header. The member id is the token's verified e-mail address.
 */
export class CognitoConsoleAuthenticator implements ConsoleAuthenticator {
  private readonly verify: IdTokenVerifier;

  constructor(verify: IdTokenVerifier) {
    this.verify = verify;
  }

  async identify(authorization: string | undefined): Promise<ConsoleIdentity> {
    const token = bearerToken(authorization);
    let claims: VerifiedIdToken;
    try {
      claims = await this.verify(token);
    } catch {
      throw notSignedIn('Your sign-in is not valid or has expired: sign in again.');
    }
    if (typeof claims.email !== 'string' || claims.email_verified !== true) {
      throw notSignedIn('Your account has no verified e-mail address: ask an administrator to verify it.');
    }
    return { member: claims.email.toLowerCase(), expiresAt: claims.exp * 1000 };
  }
}
