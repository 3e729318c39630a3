import middy from '@middy/core';
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import { loadConsoleConfig } from '../../shared/console/console-config.ts';
import { loadRuntimeConfig } from '../../shared/config/runtime-config.ts';
import { createConsoleFunction } from '../../shared/wiring/create-console-function.ts';

/** The console's API (`/console/api/*`), served by a function URL behind CloudFront; its page is static, in S3. */
const serve = createConsoleFunction(loadRuntimeConfig(process.env), loadConsoleConfig(process.env));

export const handler = middy<APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2>().handler(serve);
