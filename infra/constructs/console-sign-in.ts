import { Duration, RemovalPolicy, Stack } from 'aws-cdk-lib';
import {
  AccountRecovery,
  Mfa,
  OAuthScope,
  UserPool,
  UserPoolClientIdentityProvider,
  type UserPoolClient,
  type UserPoolDomain,
} from 'aws-cdk-lib/aws-cognito';
import { Construct } from 'constructs';

export interface ConsoleSignInProps {
  /** The hosted sign-in pages' prefix, `<prefix>.auth.<region>.amazoncognito.com`: unique per region. */
  domainPrefix?: string;
  deletionProtection: boolean;
}

/**
 * Who may sign in to the console: a Cognito user pool created by the stack, people added by an
 * administrator (no self sign-up), signing in by e-mail on the hosted pages with a second factor (TOTP).
 * The console's app client uses the authorization code flow with PKCE and no secret.
 */
export class ConsoleSignIn extends Construct {
  readonly userPool: UserPool;
  readonly domain: UserPoolDomain;

  constructor(scope: Construct, id: string, props: ConsoleSignInProps) {
    super(scope, id);
    const stack = Stack.of(this);
    this.userPool = new UserPool(this, 'Users', {
      selfSignUpEnabled: false,
      signInAliases: { email: true },
      autoVerify: { email: true },
      standardAttributes: { email: { required: true, mutable: true } },
      mfa: Mfa.REQUIRED,
      mfaSecondFactor: { otp: true, sms: false },
      passwordPolicy: { minLength: 12, requireLowercase: true, requireUppercase: true, requireDigits: true, requireSymbols: true, tempPasswordValidity: Duration.days(3) },
      accountRecovery: AccountRecovery.EMAIL_ONLY,
      deletionProtection: props.deletionProtection,
      removalPolicy: RemovalPolicy.RETAIN,
    });
    this.domain = this.userPool.addDomain('HostedSignIn', {
      cognitoDomain: { domainPrefix: props.domainPrefix ?? `${stack.stackName.toLowerCase()}-console-${stack.account}` },
    });
  }

  /** `https://<prefix>.auth.<region>.amazoncognito.com`: the hosted pages and the token endpoint. */
  get signInOrigin(): string {
    return this.domain.baseUrl();
  }

  /** The console's app client, allowed to return to the console's own URLs only. */
  addConsoleClient(consoleUrls: string[]): UserPoolClient {
    return this.userPool.addClient('Console', {
      generateSecret: false,
      authFlows: { userSrp: false, userPassword: false, adminUserPassword: false, custom: false },
      oAuth: {
        flows: { authorizationCodeGrant: true, implicitCodeGrant: false },
        scopes: [OAuthScope.OPENID, OAuthScope.EMAIL],
        callbackUrls: consoleUrls,
        logoutUrls: consoleUrls,
      },
      supportedIdentityProviders: [UserPoolClientIdentityProvider.COGNITO],
      preventUserExistenceErrors: true,
      // The console's session: an hour per ID token, then sign in again (the hosted pages remember the person).
      idTokenValidity: Duration.hours(1),
      accessTokenValidity: Duration.hours(1),
      refreshTokenValidity: Duration.hours(8),
      enableTokenRevocation: true,
    });
  }
}
