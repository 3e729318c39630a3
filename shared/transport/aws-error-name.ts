/**
 * An AWS error type, normalised: a header's `ThrottlingException:http://internal…`, a JSON body's
 * `com.amazon.coral.service#ThrottlingException` (SQS: `com.amazonaws.sqs#QueueDoesNotExist`), or an event
 * stream's `throttlingException` all become `ThrottlingException`.
 */
export function awsErrorName(type: string | undefined): string | undefined {
  const name = type?.split(':')[0]?.split('#').at(-1)?.trim();
  return name ? name.charAt(0).toUpperCase() + name.slice(1) : undefined;
}
