import middy from '@middy/core';
import { executionModeStreamifyResponse } from '@middy/core/StreamifyResponse';
import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { loadRuntimeConfig } from '../../shared/config/runtime-config.ts';
import { createOpenAiRouteGroup } from '../../shared/endpoints/openai-route-group.ts';
import type { StreamingResult } from '../../shared/lambda/function-url.ts';
import { renderOpenAiError } from '../../shared/protocols/openai-chat/openai-errors.ts';
import { createRouteGroupFunction } from '../../shared/wiring/route-group-function.ts';

/** The OpenAI-compatible route group (`/v1/*`), served by a function URL in response-streaming mode. */
const serve = createRouteGroupFunction(loadRuntimeConfig(process.env), {
  serviceName: 'gateway-openai',
  createRouteGroup: createOpenAiRouteGroup,
  renderError: renderOpenAiError,
});

export const handler = middy<APIGatewayProxyEventV2, StreamingResult>({ executionMode: executionModeStreamifyResponse }).handler(serve);
