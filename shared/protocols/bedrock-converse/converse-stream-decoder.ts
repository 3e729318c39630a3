import { parseJsonObject } from '../../core/json-object.ts';
import { createAwsEventStreamDecoder, type EventStreamMessage } from '../../transport/aws-event-stream-decoder.ts';
import type { StreamDecoder, UpstreamEvent } from '../../transport/stream-decoder.ts';

/**
 * ConverseStream's messages as events shaped the way the AWS SDK shapes them: `{<event type>: <payload>}`
 * (`{contentBlockDelta: {…}}`), an exception as `{<exception type>: {message}}`. An unmodelled error (an
 * `error` message, its code in `:error-code`: `InternalFailure`, …) is an exception too, keyed
 * `<code>Exception` when its code does not say so, so that the reader ends the stream with it.
 */
export function createConverseStreamDecoder(): Promise<StreamDecoder> {
  return createAwsEventStreamDecoder(toConverseEvent);
}

function toConverseEvent(message: EventStreamMessage): UpstreamEvent | undefined {
  if (!message.type) return undefined;
  const key = message.messageType === 'event' || message.type.endsWith('Exception') ? message.type : `${message.type}Exception`;
  const payload = { [key]: parseJsonObject(message.body) ?? {} };
  const data = JSON.stringify(payload);
  return { raw: data, data, payload };
}
