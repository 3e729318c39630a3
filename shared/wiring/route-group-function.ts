import { GetSecretValueCommand, SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import type { RuntimeConfig } from '../config/runtime-config.ts';
import type { GatewayError } from '../core/errors.ts';
import type { GatewayServices } from '../pipeline/gateway-services.ts';
import type { ErrorReporter } from '../pipeline/route-group.ts';
import type { GatewayRequest, GatewayResponse } from '../http/gateway-http.ts';
import { toGatewayRequest, toStreamingResult, type StreamingResult } from '../lambda/function-url.ts';
import { guardOrigin, type OriginSecretLoader } from '../lambda/origin-secret.ts';
import { createGatewayServices } from './create-gateway-services.ts';
import { createLogger } from './logger.ts';
import { createGatewayMetrics, withResponseMetrics, withUsageMetrics } from './metrics.ts';

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
export function createRouteGroupFunction(config: RuntimeConfig, definition: RouteGroupFunction) {
  const logger = createLogger(definition.serviceName);
  const metrics = createGatewayMetrics({ serviceName: definition.serviceName, enabled: config.AWS_LAMBDA_FUNCTION_NAME !== undefined });
  // A usage record the queue refused is logged whole (it holds no prompt, completion or secret) for replay.
  const services = createGatewayServices(config, (record, error) => logger.error('usage record not queued', { usageRecord: record, error }));
  const routeGroup = definition.createRouteGroup({ ...services, usageSink: withUsageMetrics(services.usageSink, metrics) }, (error, requestId) =>
    logger.error('request failed', { requestId, code: error.code, status: error.status, error: error.cause ?? error }),
  );
  // Requests refused for a missing origin secret are counted too: a rising 403 count means direct calls.
  const serve = withResponseMetrics(
    guardOrigin(routeGroup, {
      loadSecret: originSecretLoader(config),
      renderError: (error) => {
        if (error.status >= 500) logger.error('origin secret unavailable', { error: error.cause ?? error });
        return definition.renderError(error, {});
      },
    }),
    metrics,
  );
  return async (event: APIGatewayProxyEventV2): Promise<StreamingResult> => toStreamingResult(await serve(toGatewayRequest(event)));
}

/** The origin secret, read from Secrets Manager once per execution environment (CloudFront deployments only). */
export function originSecretLoader(config: RuntimeConfig): OriginSecretLoader | undefined {
  const secretArn = config.GATEWAY_ORIGIN_SECRET_ARN;
  if (secretArn === undefined) return undefined;
  const client = new SecretsManagerClient({ region: config.AWS_REGION });
  return async () => (await client.send(new GetSecretValueCommand({ SecretId: secretArn }))).SecretString ?? '';
}
