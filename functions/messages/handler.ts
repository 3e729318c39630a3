import middy from '@middy/core';
import { executionModeStreamifyResponse } from '@middy/core/StreamifyResponse';
import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { loadRuntimeConfig } from '../../shared/config/runtime-config.ts';
import { createMessagesRouteGroup } from '../../shared/endpoints/messages-route-group.ts';
import type { StreamingResult } from '../../shared/lambda/function-url.ts';
import { renderAnthropicError } from '../../shared/protocols/anthropic-messages/anthropic-errors.ts';
import { createRouteGroupFunction } from '../../shared/wiring/route-group-function.ts';

/** The messages route group (`/v1/messages*`), served by a function URL in response-streaming mode. */
const serve = createRouteGroupFunction(loadRuntimeConfig(process.env), {
  serviceName: 'gateway-messages',
  createRouteGroup: createMessagesRouteGroup,
  renderError: renderAnthropicError,
});

export const handler = middy<APIGatewayProxyEventV2, StreamingResult>({ executionMode: executionModeStreamifyResponse }).handler(serve);
