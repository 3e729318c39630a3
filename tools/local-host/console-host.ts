import { randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import { LocalConsoleSessions } from '../../shared/adapters/local/local-console-sessions.ts';
import { requireSetting, type RuntimeConfig } from '../../shared/config/runtime-config.ts';
import { CONSOLE_PATH, CONSOLE_SITE_CONFIG_FILE, consoleContentSecurityPolicy, type ConsoleSiteConfig } from '../../shared/console/console-site.ts';
import { CONSOLE_API_PREFIX } from '../../shared/console/console-api.ts';
import type { ConfigCaches } from '../../shared/pipeline/config-caches.ts';
import { buildConsoleAssets, type ConsoleAsset } from '../../web/console/build-console-assets.ts';
import { DuckDbUsageQuery } from './duckdb-usage-query.ts';
import { buildFunctionUrlEvent } from './function-url-event.ts';

/** Who the link printed by `npm start` signs in, unless GATEWAY_CONSOLE_USER names someone else. */
export const DEFAULT_LOCAL_CONSOLE_MEMBER = 'admin@localhost';
/** How long a sign-in link printed by `npm start` stays usable (once), and how long its session lasts. */
export const LOCAL_SIGN_IN_LINK_TTL_MS = 24 * 60 * 60_000;
export const LOCAL_CONSOLE_SESSION_TTL_MS = 8 * 60 * 60_000;

type ConsoleHandler = (event: APIGatewayProxyEventV2, context: object) => Promise<APIGatewayProxyStructuredResultV2>;

/** What CloudFront's response-headers policy adds to the console's static files in AWS. */
const PAGE_HEADERS = {
  'content-security-policy': consoleContentSecurityPolicy(),
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
  'referrer-policy': 'no-referrer',
  'cache-control': 'no-cache',
};

export interface ConsoleHostOptions {
  /** The local host's configuration; its usage files are those of GATEWAY_USAGE_DIR. */
  config: RuntimeConfig;
  /** The caches the route groups and the admin function share, so a change made in the console applies at once. */
  caches: ConfigCaches;
}

export interface ConsoleHost {
  /** Whether a path is the console's: `/console`, its files, its API. */
  serves(path: string): boolean;
  serve(request: IncomingMessage, response: ServerResponse, body: Buffer): Promise<void>;
  /** A link that signs `member` in once (the code is in the fragment, which browsers never send). */
  signInLink(baseUrl: string, member: string): string;
}

/**
 * The console on the local host, as CloudFront serves it in AWS: the static files (built in memory with
 * esbuild at start) with the same security headers, config.json for local sign-in, and `/console/api/*`
 * handed to the console function's handler as function-URL events. The host gives that handler its
 * sign-in sessions (it issues the codes of the links it prints, the function redeems and checks them) and
 * DuckDB over the usage files for the usage pages, where AWS has Cognito and Athena.
 */
export async function startConsoleHost(options: ConsoleHostOptions): Promise<ConsoleHost> {
  const siteConfig: ConsoleSiteConfig = { signIn: 'local' };
  const assets = new Map<string, ConsoleAsset>((await buildConsoleAssets()).map((asset) => [asset.name, asset]));
  assets.set(CONSOLE_SITE_CONFIG_FILE, { name: CONSOLE_SITE_CONFIG_FILE, contentType: 'application/json', body: Buffer.from(JSON.stringify(siteConfig)) });
  const sessions = new LocalConsoleSessions({
    clock: { now: () => Date.now() },
    randomBytes: (size) => randomBytes(size),
    codeTtlMs: LOCAL_SIGN_IN_LINK_TTL_MS,
    sessionTtlMs: LOCAL_CONSOLE_SESSION_TTL_MS,
  });
  const consoleModule = await import('../../functions/console/handler.ts');
  const usage = new DuckDbUsageQuery(requireSetting(options.config, 'GATEWAY_USAGE_DIR'));
  const handler = consoleModule.createHandler(options.config, { caches: options.caches, localSessions: sessions, usage }) as unknown as ConsoleHandler;

  return {
    serves: (path) => path === CONSOLE_PATH || path.startsWith(`${CONSOLE_PATH}/`),
    async serve(request, response, body) {
      const path = (request.url ?? '/').split('?')[0] ?? '/';
      if (path === CONSOLE_PATH) {
        response.writeHead(301, { location: `${CONSOLE_PATH}/` }).end();
        return;
      }
      if (path.startsWith(`${CONSOLE_API_PREFIX}/`)) {
        const result = await handler(buildFunctionUrlEvent(request, body, Date.now()), {});
        response.writeHead(result.statusCode ?? 200, result.headers as Record<string, string>).end(result.body ?? '');
        return;
      }
      const asset = assets.get(path === `${CONSOLE_PATH}/` ? 'index.html' : path.slice(CONSOLE_PATH.length + 1));
      if (!asset || (request.method !== 'GET' && request.method !== 'HEAD')) {
        response.writeHead(404, { 'content-type': 'text/plain; charset=utf-8', ...PAGE_HEADERS }).end('Not found');
        return;
      }
      response.writeHead(200, { 'content-type': asset.contentType, 'content-length': asset.body.length, ...PAGE_HEADERS });
      response.end(request.method === 'HEAD' ? undefined : asset.body);
    },
    signInLink: (baseUrl, member) => `${baseUrl}${CONSOLE_PATH}/#signin=${sessions.issueSignInCode(member)}`,
  };
}
