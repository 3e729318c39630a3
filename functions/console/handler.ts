import middy from '@middy/core';
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import { loadRuntimeConfig, type RuntimeConfig } from '../../shared/config/runtime-config.ts';
import { onFirstCall } from '../../shared/lambda/lambda-handlers.ts';
import { createConsoleFunction, type ConsoleFunctionDependencies } from '../../shared/wiring/create-console-function.ts';

/** The console's API (`/console/api/*`), served by a function URL behind CloudFront; its page is static, in S3. */
function handlerOf(serve: (event: APIGatewayProxyEventV2) => Promise<APIGatewayProxyStructuredResultV2>) {
  return middy<APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2>().handler(serve);
}

/** The handler for a configuration and what a host injects (the local host: its caches, sign-in sessions and DuckDB). */
export function createHandler(config: RuntimeConfig, dependencies: ConsoleFunctionDependencies = {}) {
  return handlerOf(createConsoleFunction(config, dependencies));
}

/** Lambda's entry point: built from the environment on the first invocation. */
export const handler = handlerOf(onFirstCall(() => createConsoleFunction(loadRuntimeConfig(process.env))));
