import { AthenaClient } from '@aws-sdk/client-athena';
import { S3Client } from '@aws-sdk/client-s3';
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import { AthenaUsageQuery } from '../adapters/aws/athena-usage-query.ts';
import { CognitoConsoleAuthenticator, cognitoIdTokenVerifier } from '../adapters/aws/cognito-console-authenticator.ts';
import { loadConsoleSiteConfig } from '../adapters/aws/s3-console-site-config.ts';
import { requireSetting, type RuntimeConfig } from '../config/runtime-config.ts';
import { createConsoleApi } from '../console/console-api.ts';
import type { ConsoleConfig } from '../console/console-config.ts';
import { consoleError } from '../console/console-http.ts';
import { bearerToken, type ConsoleAuthenticator, type SignInCodeExchange } from '../console/console-identity.ts';
import type { UsageQueryRunner } from '../core/ports.ts';
import { toGatewayRequest } from '../lambda/function-url.ts';
import { guardOrigin } from '../lambda/origin-secret.ts';
import { inProcessConsoleSessions } from '../../tools/local-host/in-process-console-sessions.ts';
import { createAdminServices } from './create-admin-services.ts';
import { createLogger } from './logger.ts';
import { originSecretLoader } from './route-group-function.ts';

/** Athena answers the console within the function's 30 s, or the page shows an error. */
const ATHENA_TIMEOUT_MS = 20_000;

/**
 * The console function: its API behind the origin-secret guard, on the admin commands' services, with
 * Cognito or local sign-in and Athena or DuckDB usage queries as configured.
 */
export function createConsoleFunction(config: RuntimeConfig, consoleConfig: ConsoleConfig) {
  const logger = createLogger('gateway-console');
  const signIn = createSignIn(config, consoleConfig);
  const api = createConsoleApi(
    { admin: createAdminServices(config), authenticator: signIn.authenticator, usage: createUsageQuery(config, consoleConfig), clock: { now: () => Date.now() }, ...signIn.codes },
    (error) => logger.error('console request failed', { code: error.code, status: error.status, error: error.cause ?? error }),
  );
  const serve = guardOrigin(api, { loadSecret: originSecretLoader(config), renderError: consoleError });
  return async (event: APIGatewayProxyEventV2): Promise<APIGatewayProxyStructuredResultV2> => {
    const response = await serve(toGatewayRequest(event));
    if (typeof response.body !== 'string') throw new Error('The console API answers with whole bodies only.');
    return { statusCode: response.status, headers: response.headers, body: response.body };
  };
}

function createSignIn(config: RuntimeConfig, consoleConfig: ConsoleConfig): { authenticator: ConsoleAuthenticator; codes: { signInCodes?: SignInCodeExchange } } {
  if (consoleConfig.GATEWAY_CONSOLE_SIGN_IN === 'local') return { authenticator: inProcessConsoleSessions, codes: { signInCodes: inProcessConsoleSessions } };
  const bucket = consoleConfig.GATEWAY_CONSOLE_SITE_BUCKET;
  if (!bucket) throw new Error('Invalid console configuration: GATEWAY_CONSOLE_SITE_BUCKET is required for Cognito sign-in');
  const s3 = new S3Client({ region: config.AWS_REGION });
  let ready: Promise<ConsoleAuthenticator> | undefined;
  const load = async (): Promise<ConsoleAuthenticator> => {
    const site = await loadConsoleSiteConfig(s3, bucket);
    if (site.signIn !== 'cognito') throw new Error('The deployed console config.json is not for Cognito sign-in.');
    return new CognitoConsoleAuthenticator(cognitoIdTokenVerifier(site));
  };
  return {
    authenticator: {
      async identify(authorization) {
        bearerToken(authorization); // Anonymous requests get their 401 without waiting for the configuration.
        ready ??= load().catch((error: unknown) => {
          ready = undefined;
          throw error;
        });
        return (await ready).identify(authorization);
      },
    },
    codes: {},
  };
}

function createUsageQuery(config: RuntimeConfig, consoleConfig: ConsoleConfig): UsageQueryRunner {
  if (consoleConfig.GATEWAY_USAGE_QUERY === 'athena') {
    const workGroup = consoleConfig.GATEWAY_ATHENA_WORKGROUP;
    if (!workGroup) throw new Error('Invalid console configuration: GATEWAY_ATHENA_WORKGROUP is required for Athena usage queries');
    return new AthenaUsageQuery(new AthenaClient({ region: config.AWS_REGION }), { workGroup, database: consoleConfig.GATEWAY_USAGE_DATABASE, timeoutMs: ATHENA_TIMEOUT_MS });
  }
  const dataDir = requireSetting(config, 'GATEWAY_USAGE_DIR');
  // Imported on first use: DuckDB's native binding is for the local host and stays out of the Lambda bundle.
  let local: Promise<UsageQueryRunner> | undefined;
  return {
    async query(sql, params) {
      local ??= import('../adapters/local/duckdb-usage-query.ts').then(({ DuckDbUsageQuery }) => new DuckDbUsageQuery(dataDir));
      return (await local).query(sql, params);
    },
  };
}
