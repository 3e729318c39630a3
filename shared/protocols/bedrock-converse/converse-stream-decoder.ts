import { parseJsonObject } from '../../core/json-object.ts';
import { createAwsEventStreamDecoder, type EventStreamMessage } from '../../transport/aws-event-stream-decoder.ts';
import type { StreamDecoder, UpstreamEvent } from '../../transport/stream-decoder.ts';

/**
 * ConverseStream's messages as events shaped the way the AWS SDK shapes them: `{<event type>: <payload>}`
 * (`{contentBlockDelta: {…}}`), an exception as `{<exception type>: {message}}`.
 */
export function createConverseStreamDecoder(): Promise<StreamDecoder> {
  return createAwsEventStreamDecoder(toConverseEvent);
}

function toConverseEvent(message: EventStreamMessage): UpstreamEvent | undefined {
  if (!message.type) return undefined;
  const payload = { [message.type]: parseJsonObject(message.body) ?? {} };
  const data = JSON.stringify(payload);
  return { raw: data, data, payload };
}
