import { parseJsonObject } from '../../core/json-object.ts';
import { createAwsEventStreamDecoder, type EventStreamMessage } from '../../transport/aws-event-stream-decoder.ts';
import { decodeSseEvent, type StreamDecoder, type UpstreamEvent } from '../../transport/stream-decoder.ts';
import { toAnthropicErrorType } from '../anthropic-messages/anthropic-errors.ts';
import { awsErrorName } from '../../transport/aws-error-name.ts';
import { canonicalTypeOf } from '../bedrock-runtime/bedrock-errors.ts';

/**
 * InvokeModelWithResponseStream's messages as Anthropic's SSE events: each `chunk` carries one Anthropic
 * event's JSON, base64-encoded in `bytes`, which becomes `event: <type>\ndata: <json>` with the JSON as
 * Bedrock sent it (a Messages client reads Anthropic's stream byte for byte, Bedrock's invocation metrics
 * on message_stop included). An exception becomes Anthropic's `error` event, so the client reads one
 * stream format whatever went wrong.
 */
export function createBedrockMessagesDecoder(): Promise<StreamDecoder> {
  return createAwsEventStreamDecoder(toAnthropicEvent);
}

function toAnthropicEvent(message: EventStreamMessage): UpstreamEvent | undefined {
  if (message.messageType === 'event') {
    if (message.type !== 'chunk') return undefined;
    const encoded = parseJsonObject(message.body)?.bytes;
    if (typeof encoded !== 'string') return undefined;
    const json = Buffer.from(encoded, 'base64').toString('utf8');
    const event = parseJsonObject(json);
    // Bytes that hold no Anthropic event (cut JSON, or no base64 at all) are dropped as broken JSON is, not relayed as garbage.
    if (!event) return { raw: '', data: json, payload: undefined, unreadable: true };
    const { type } = event;
    return decodeSseEvent(`event: ${typeof type === 'string' ? type : 'message'}\ndata: ${json}\n\n`);
  }
  const name = awsErrorName(message.type);
  const detail = parseJsonObject(message.body)?.message;
  const error = {
    type: 'error',
    error: { type: toAnthropicErrorType(canonicalTypeOf(name)), message: typeof detail === 'string' && detail ? detail : `Bedrock ended the stream with ${name ?? 'an error'}.` },
  };
  return decodeSseEvent(`event: error\ndata: ${JSON.stringify(error)}\n\n`);
}
