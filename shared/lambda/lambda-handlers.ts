import middy from '@middy/core';
import { executionModeStreamifyResponse } from '@middy/core/StreamifyResponse';
import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import type { StreamingResult } from './function-url.ts';

type Serve = (event: APIGatewayProxyEventV2) => Promise<StreamingResult>;

/** A function-URL handler in response-streaming mode (middy's streamifyResponse). */
export function streamingHandler(serve: Serve) {
  return middy<APIGatewayProxyEventV2, StreamingResult>({ executionMode: executionModeStreamifyResponse }).handler(serve);
}

/**
 * Defers building what a handler needs until its first invocation, so importing a handler module wires
 * nothing (a host that injects its own dependencies calls the module's factory instead).
 */
export function onFirstCall<Event, Result>(build: () => (event: Event) => Promise<Result>): (event: Event) => Promise<Result> {
  let built: ((event: Event) => Promise<Result>) | undefined;
  return (event) => (built ??= build())(event);
}
