import type { Context } from 'aws-lambda';

let invocations = 0;

/** The callback-style completions of old handlers: unused by the gateway's, shared by every context. */
const ignoreCompletion = (): void => {};

/**
 * The context object a Lambda runtime passes to a handler. The request id only has to be unique within
 * the host's run (locally it names nothing else), so a counter serves where Lambda draws a UUID.
 */
export function lambdaContext(functionName: string): Context {
  const deadline = Date.now() + 15 * 60_000;
  invocations += 1;
  return {
    callbackWaitsForEmptyEventLoop: false,
    functionName,
    functionVersion: '$LATEST',
    invokedFunctionArn: `arn:aws:lambda:local:000000000000:function:${functionName}`,
    memoryLimitInMB: '1024',
    awsRequestId: `local-${process.pid}-${invocations}`,
    logGroupName: `/aws/lambda/${functionName}`,
    logStreamName: 'local',
    getRemainingTimeInMillis: () => Math.max(0, deadline - Date.now()),
    done: ignoreCompletion,
    fail: ignoreCompletion,
    succeed: ignoreCompletion,
  };
}
