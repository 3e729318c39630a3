import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import { CognitoConsoleAuthenticator, cognitoIdTokenVerifier } from '../adapters/aws/cognito-console-authenticator.ts';
import { loadConsoleSiteConfig } from '../adapters/aws/s3-console-site-config.ts';
import { requireSetting, type RuntimeConfig } from '../config/runtime-config.ts';
import { createConsoleApi } from '../console/console-api.ts';
import { consoleError } from '../console/console-http.ts';
import { bearerToken, type ConsoleAuthenticator, type SignInCodeExchange } from '../console/console-identity.ts';
import type { AwsCredentialSource, UsageQueryRunner } from '../core/ports.ts';
import { toGatewayRequest } from '../lambda/function-url.ts';
import { guardOrigin } from '../lambda/origin-secret.ts';
import type { ConfigCaches } from '../pipeline/config-caches.ts';
import { loadOnFirstUse } from '../core/load-on-first-use.ts';
import { awsClientConfig } from './aws-client-config.ts';
import { createDefaultAwsCredentials } from '../adapters/aws/default-aws-credentials.ts';
import { createAdminServices } from './create-admin-services.ts';
import { createS3Objects } from './s3-objects.ts';
import { createLogger } from './logger.ts';
import { originSecretLoader } from './route-group-function.ts';

/** Athena answers the console within the function's 30 s, or the page shows an error. */
const ATHENA_TIMEOUT_MS = 20_000;

/** What a host may give the console function instead of building it from the configuration. */
export interface ConsoleFunctionDependencies {
  /** Configuration caches; shared with the route groups and the admin function where all run in one process. */
  caches?: ConfigCaches;
  /**
   * Local sign-in: the host's sessions, which issue the one-time codes of the links it prints. Cognito
   * (GATEWAY_CONSOLE_SITE_BUCKET's config.json) unless given; Lambda never gives them.
   */
  localSessions?: ConsoleAuthenticator & SignInCodeExchange;
  /** Usage queries; Athena (GATEWAY_ATHENA_WORKGROUP) unless given. The local host gives DuckDB over its usage files. */
  usage?: UsageQueryRunner;
}

/**
 * The console function: its API behind the origin-secret guard, on the admin commands' services, with
 * Cognito sign-in and Athena usage queries unless the host gives its own (the local host: one-time links
 * and DuckDB).
 */
export function createConsoleFunction(config: RuntimeConfig, dependencies: ConsoleFunctionDependencies = {}) {
  const logger = createLogger('gateway-console', config);
  const awsCredentials = createDefaultAwsCredentials();
  const signIn = createSignIn(config, dependencies, awsCredentials);
  const api = createConsoleApi(
    {
      admin: createAdminServices(config, { ...dependencies, awsCredentials }),
      authenticator: signIn.authenticator,
      usage: dependencies.usage ?? createAthenaUsageQuery(config),
      clock: { now: () => Date.now() },
      ...signIn.codes,
    },
    (error) => logger.error('console request failed', { code: error.code, status: error.status, error: error.cause ?? error }),
  );
  const serve = guardOrigin(api, {
    loadSecrets: originSecretLoader(config, awsCredentials),
    renderError: (error) => {
      if (error.status >= 500) logger.error('origin secret unavailable', { error: error.cause ?? error });
      return consoleError(error);
    },
  });
  return async (event: APIGatewayProxyEventV2): Promise<APIGatewayProxyStructuredResultV2> => {
    const response = await serve(toGatewayRequest(event));
    if (typeof response.body !== 'string') throw new Error('The console API answers with whole bodies only.');
    return { statusCode: response.status, headers: response.headers, body: response.body };
  };
}

function createSignIn(
  config: RuntimeConfig,
  dependencies: ConsoleFunctionDependencies,
  awsCredentials: AwsCredentialSource,
): { authenticator: ConsoleAuthenticator; codes: { signInCodes?: SignInCodeExchange } } {
  const sessions = dependencies.localSessions;
  if (sessions) return { authenticator: sessions, codes: { signInCodes: sessions } };
  const bucket = requireSetting(config, 'GATEWAY_CONSOLE_SITE_BUCKET');
  const s3 = createS3Objects(config, awsCredentials);
  const ready = loadOnFirstUse(async (): Promise<ConsoleAuthenticator> => {
    const site = await loadConsoleSiteConfig(s3, bucket);
    if (site.signIn !== 'cognito') throw new Error('The deployed console config.json is not for Cognito sign-in.');
    return new CognitoConsoleAuthenticator(cognitoIdTokenVerifier(site));
  });
  return {
    authenticator: {
      async identify(authorization) {
        bearerToken(authorization); // Anonymous requests get their 401 without waiting for the configuration.
        return (await ready()).identify(authorization);
      },
    },
    codes: {},
  };
}

/**
 * Athena's client and adapter load with the first usage query: most console requests (sign-in, projects,
 * keys) never query usage, and the client would add to every cold start. The setting is checked at once.
 */
function createAthenaUsageQuery(config: RuntimeConfig): UsageQueryRunner {
  const workGroup = requireSetting(config, 'GATEWAY_ATHENA_WORKGROUP');
  const athena = loadOnFirstUse(async () => {
    const [{ AthenaClient }, { AthenaUsageQuery }] = await Promise.all([import('@aws-sdk/client-athena'), import('../adapters/aws/athena-usage-query.ts')]);
    return new AthenaUsageQuery(new AthenaClient(awsClientConfig(config.AWS_REGION)), { workGroup, database: config.GATEWAY_USAGE_DATABASE, timeoutMs: ATHENA_TIMEOUT_MS });
  });
  return { query: async (sql, params) => (await athena()).query(sql, params) };
}
