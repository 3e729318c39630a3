import middy from '@middy/core';
import { executionModeStreamifyResponse } from '@middy/core/StreamifyResponse';
import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { loadRuntimeConfig } from '../../shared/config/runtime-config.ts';
import { createOpenAiRouteGroup } from '../../shared/gateway/openai-route-group.ts';
import { toGatewayRequest, toStreamingResult, type StreamingResult } from '../../shared/lambda/function-url.ts';
import { createGatewayServices } from '../../shared/wiring/create-gateway-services.ts';
import { createLogger } from '../../shared/wiring/logger.ts';

/** The OpenAI-compatible route group (`/v1/*`), served by a function URL in response-streaming mode. */
const config = loadRuntimeConfig(process.env);
const logger = createLogger('gateway-openai');
// A usage record the queue refused is logged whole (it holds no prompt, completion or secret) for replay.
const services = createGatewayServices(config, (record, error) => logger.error('usage record not queued', { usageRecord: record, error }));
const serve = createOpenAiRouteGroup(services, (error, requestId) =>
  logger.error('request failed', { requestId, code: error.code, status: error.status, error: error.cause ?? error }),
);

export const handler = middy<APIGatewayProxyEventV2, StreamingResult>({ executionMode: executionModeStreamifyResponse }).handler(
  async (event: APIGatewayProxyEventV2) => toStreamingResult(await serve(toGatewayRequest(event))),
);
