import middy from '@middy/core';
import type { APIGatewayProxyEventV2, Context } from 'aws-lambda';
import type { StreamingResult } from './function-url.ts';
import { executionModeStreamBody } from './stream-execution-mode.ts';

type Serve = (event: APIGatewayProxyEventV2) => Promise<StreamingResult & { afterAnswer?: () => Promise<void> }>;

/**
 * A function-URL handler in response-streaming mode (middy's, with a Node body piped by hand:
 * stream-execution-mode.ts). What the answer defers (handing the usage record over) runs in middy's
 * requestEnd, which comes after the response stream has ended and before the invocation does: the client
 * never waits for it, and Lambda never freezes before it.
 */
export function streamingHandler(serve: Serve) {
  const deferredWork = new WeakMap<Context, () => Promise<void>>();
  return middy<APIGatewayProxyEventV2, StreamingResult>({
    // middy types an execution mode as `() => void`; it is called with middy's parts.
    executionMode: executionModeStreamBody as unknown as () => void,
    requestEnd: async (request) => {
      await deferredWork.get(request.context)?.();
    },
  }).handler(async (event, context) => {
    const { afterAnswer, ...result } = await serve(event);
    if (afterAnswer) deferredWork.set(context, afterAnswer);
    return result;
  });
}

/**
 * Defers building what a handler needs until its first invocation, so importing a handler module wires
 * nothing (a host that injects its own dependencies calls the module's factory instead).
 */
export function onFirstCall<Event, Result>(build: () => (event: Event) => Promise<Result>): (event: Event) => Promise<Result> {
  let built: ((event: Event) => Promise<Result>) | undefined;
  return (event) => (built ??= build())(event);
}
