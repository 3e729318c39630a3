import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import type { RuntimeConfig } from '../config/runtime-config.ts';
import type { GatewayError } from '../core/errors.ts';
import type { AwsCredentialSource } from '../core/ports.ts';
import { isAwsError } from '../transport/aws-json-service.ts';
import type { GatewayServices } from '../pipeline/gateway-services.ts';
import type { ErrorReporter } from '../pipeline/route-group.ts';
import type { GatewayRequest, GatewayResponse } from '../http/gateway-http.ts';
import { toGatewayRequest, toStreamingResult } from '../lambda/function-url.ts';
import { guardOrigin, type OriginSecretLoader } from '../lambda/origin-secret.ts';
import { createGatewayServices, type RouteGroupDependencies } from './create-gateway-services.ts';
import type { Logger } from '@aws-lambda-powertools/logger';
import { createLogger } from './logger.ts';
import { createSecretsManager } from './secrets-manager.ts';
import { createGatewayMetrics, withResponseMetrics, withUsageMetrics } from './metrics.ts';
import { CORS_HEADERS } from '../http/cors.ts';

/** Log messages that CloudWatch metric filters count (infra/constructs/gateway-alarms.ts). */
export const USAGE_RECORD_SPILLED = 'usage record spilled';
export const USAGE_RECORD_NOT_QUEUED = 'usage record not queued';
export const UPSTREAM_EVENT_DROPPED = 'upstream event dropped: its data is broken JSON';
export const UPSTREAM_FAILED = 'upstream failed';

export interface RouteGroupFunction {
  serviceName: string;
  createRouteGroup: (services: GatewayServices, reportError: ErrorReporter) => (request: GatewayRequest) => Promise<GatewayResponse>;
  /** Renders a refusal of the origin guard in the group's protocol. */
  renderError: (error: GatewayError, headers: Record<string, string>) => GatewayResponse;
}

/**
 * What every route-group Lambda does around its route group, once per execution environment: services
 * from the configuration, structured logs, embedded metrics, the origin-secret guard, and the conversion
 * between function-URL events and the gateway's request and response.
 */
export function createRouteGroupFunction(config: RuntimeConfig, definition: RouteGroupFunction, dependencies: RouteGroupDependencies = {}) {
  const logger = createLogger(definition.serviceName, config);
  const metrics = createGatewayMetrics({ serviceName: definition.serviceName, enabled: config.AWS_LAMBDA_FUNCTION_NAME !== undefined });
  // A record the queue refused goes to the spill (npm run replay drains it); if even that fails, it is logged
  // whole (it holds no prompt, completion or secret) for replay by hand. Both messages have alarms.
  const services = createGatewayServices(config, {
    spilled: (record, error) => logger.warn(USAGE_RECORD_SPILLED, { recordId: record.recordId, error }),
    unsent: (record, error) => logger.error(USAGE_RECORD_NOT_QUEUED, { usageRecord: record, error }),
    malformedEvent: (report) => logger.warn(UPSTREAM_EVENT_DROPPED, { ...report }),
  }, dependencies);
  const routeGroup = definition.createRouteGroup(
    { ...services, usageSink: withUsageMetrics(services.usageSink, metrics), settings: { ...services.settings, handsOverUsageAfterAnswer: true } },
    (error, requestId) => logRequestFailure(logger, error, requestId),
  );
  // Requests refused for a missing origin secret are counted too: a rising 403 count means direct calls.
  const serve = withResponseMetrics(
    guardOrigin(routeGroup, {
      loadSecrets: originSecretLoader(config, services.awsCredentials),
      renderError: (error) => {
        if (error.status >= 500) logger.error('origin secret unavailable', { error: error.cause ?? error });
        // Through CloudFront a refusal here is the secret unreadable (503): a browser client reads it too.
        return definition.renderError(error, { ...CORS_HEADERS });
      },
    }),
    metrics,
  );
  return async (event: APIGatewayProxyEventV2) => toStreamingResult(await serve(toGatewayRequest(event)));
}

/**
 * A request answered 5xx. A provider's failure (unreachable, its own 5xx, a body cut off, the deadline) is
 * a warning with its code, the gateway's own words of it (which name the provider: the message up to the
 * provider's words) and, when the network failed, the system's error, or when AWS refused the gateway's
 * credentials, AWS's words (they name the role and the model, what the operator must grant). Never the
 * provider's words, which may quote the prompt (the client has them in its answer), and without the
 * gateway's stack, which says nothing about it (printed whole in the local host's terminal, it buried the
 * request lines). Every other failure is an error, stack and cause in full.
 */
export function logRequestFailure(logger: Pick<Logger, 'warn' | 'error'>, error: GatewayError, requestId: string): void {
  if (error.kind !== 'upstream') {
    logger.error('request failed', { requestId, code: error.code, status: error.status, error: error.cause ?? error });
    return;
  }
  const cause = networkCause(error);
  const awsRefusal = error.code === 'provider_auth_failed' && typeof error.cause === 'string' ? error.cause : undefined;
  logger.warn(UPSTREAM_FAILED, {
    requestId,
    code: error.code,
    status: error.status,
    // The gateway's sentence ends where it quotes the provider (`Provider "x" failed with HTTP 503: …`).
    summary: error.message.split(': ')[0],
    ...(cause ? { cause: `${cause.name}: ${cause.message}` } : {}),
    ...(awsRefusal ? { cause: awsRefusal } : {}),
  });
}

/**
 * The system's error at the root of a chain of causes (a failover's error wraps its last attempt's, which
 * wraps the socket's), when it is one: Node's (`ECONNREFUSED`, `ENOTFOUND`…) or a time-out, whose words
 * are the system's, not the provider's.
 */
function networkCause(error: Error): Error | undefined {
  let innermost = error;
  while (innermost.cause instanceof Error) innermost = innermost.cause;
  const systemCode = (innermost as { code?: unknown }).code;
  const isSystem = (typeof systemCode === 'string' && /^E[A-Z_]+$/.test(systemCode)) || innermost.name === 'TimeoutError';
  return innermost !== error && isSystem ? innermost : undefined;
}

/**
 * The origin secret's current and previous values from Secrets Manager (CloudFront deployments only); the
 * previous one exists once the secret has been rotated (docs/decisions/origin-secret.md).
 */
export function originSecretLoader(config: RuntimeConfig, credentials: AwsCredentialSource): OriginSecretLoader | undefined {
  const secretArn = config.GATEWAY_ORIGIN_SECRET_ARN;
  if (secretArn === undefined) return undefined;
  const secretsManager = createSecretsManager(config, credentials);
  return async () => {
    const [current, previous] = await Promise.all([
      secretsManager.call('GetSecretValue', { SecretId: secretArn }),
      secretsManager.call('GetSecretValue', { SecretId: secretArn, VersionStage: 'AWSPREVIOUS' }).catch((error: unknown) => {
        if (isAwsError(error, 'ResourceNotFoundException')) return undefined; // never rotated
        throw error;
      }),
    ]);
    return {
      current: typeof current.SecretString === 'string' ? current.SecretString : '',
      ...(typeof previous?.SecretString === 'string' && previous.SecretString ? { previous: previous.SecretString } : {}),
      // The JSON protocol gives times in seconds since the epoch.
      currentSince: typeof current.CreatedDate === 'number' ? Math.round(current.CreatedDate * 1000) : 0,
    };
  };
}
