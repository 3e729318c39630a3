import middy from '@middy/core';
import { executionModeStreamifyResponse } from '@middy/core/StreamifyResponse';
import { GetSecretValueCommand, SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { loadRuntimeConfig } from '../../shared/config/runtime-config.ts';
import { createOpenAiRouteGroup } from '../../shared/gateway/openai-route-group.ts';
import { toGatewayRequest, toStreamingResult, type StreamingResult } from '../../shared/lambda/function-url.ts';
import { guardOrigin, type OriginSecretLoader } from '../../shared/lambda/origin-secret.ts';
import { renderOpenAiError } from '../../shared/protocols/openai-chat/openai-errors.ts';
import { createGatewayServices } from '../../shared/wiring/create-gateway-services.ts';
import { createLogger } from '../../shared/wiring/logger.ts';
import { createGatewayMetrics, withResponseMetrics, withUsageMetrics } from '../../shared/wiring/metrics.ts';

/** The OpenAI-compatible route group (`/v1/*`), served by a function URL in response-streaming mode. */
const config = loadRuntimeConfig(process.env);
const logger = createLogger('gateway-openai');
const metrics = createGatewayMetrics({ serviceName: 'gateway-openai', enabled: config.AWS_LAMBDA_FUNCTION_NAME !== undefined });
// A usage record the queue refused is logged whole (it holds no prompt, completion or secret) for replay.
const services = createGatewayServices(config, (record, error) => logger.error('usage record not queued', { usageRecord: record, error }));
const routeGroup = createOpenAiRouteGroup({ ...services, usageSink: withUsageMetrics(services.usageSink, metrics) }, (error, requestId) =>
  logger.error('request failed', { requestId, code: error.code, status: error.status, error: error.cause ?? error }),
);
// Requests refused for a missing origin secret are counted too: a rising 403 count means direct calls.
const serve = withResponseMetrics(
  guardOrigin(routeGroup, {
    loadSecret: originSecretLoader(config.GATEWAY_ORIGIN_SECRET_ARN),
    renderError: (error) => {
      if (error.status >= 500) logger.error('origin secret unavailable', { error: error.cause ?? error });
      return renderOpenAiError(error, {});
    },
  }),
  metrics,
);

export const handler = middy<APIGatewayProxyEventV2, StreamingResult>({ executionMode: executionModeStreamifyResponse }).handler(
  async (event: APIGatewayProxyEventV2) => toStreamingResult(await serve(toGatewayRequest(event))),
);

/** The origin secret, read from Secrets Manager once per execution environment (CloudFront deployments only). */
function originSecretLoader(secretArn: string | undefined): OriginSecretLoader | undefined {
  if (secretArn === undefined) return undefined;
  const client = new SecretsManagerClient({ region: config.AWS_REGION });
  return async () => (await client.send(new GetSecretValueCommand({ SecretId: secretArn }))).SecretString ?? '';
}
