import { EventStreamCodec } from '@smithy/eventstream-codec';
import { fromUtf8, toUtf8 } from '@smithy/util-utf8';
import { sseEvents } from './fake-openai-upstream.ts';

/** Builds AWS event-stream messages with the AWS SDK's own codec, as Bedrock's runtime sends them. */
const codec = new EventStreamCodec(toUtf8, fromUtf8);

const header = (value: string) => ({ type: 'string' as const, value });

/** One `event` message: its type in `:event-type`, its JSON payload as the body. */
export function eventFrame(eventType: string, payload: unknown): Uint8Array {
  return codec.encode({
    headers: { ':message-type': header('event'), ':event-type': header(eventType), ':content-type': header('application/json') },
    body: fromUtf8(JSON.stringify(payload)),
  });
}

/** One modelled exception (`throttlingException`, `modelStreamErrorException`, …) with its message. */
export function exceptionFrame(exceptionType: string, message: string): Uint8Array {
  return codec.encode({
    headers: { ':message-type': header('exception'), ':exception-type': header(exceptionType), ':content-type': header('application/json') },
    body: fromUtf8(JSON.stringify({ message })),
  });
}

/** An unmodelled error: `:message-type: error`, its code and message in headers and no payload. */
export function errorFrame(errorCode: string, message: string): Uint8Array {
  return codec.encode({
    headers: { ':message-type': header('error'), ':error-code': header(errorCode), ':error-message': header(message) },
    body: new Uint8Array(0),
  });
}

/** InvokeModelWithResponseStream's `chunk`: one Anthropic event's JSON, base64 in `bytes` (`p` pads, as Bedrock does). */
export function anthropicChunkFrame(eventJson: string): Uint8Array {
  return eventFrame('chunk', { bytes: Buffer.from(eventJson, 'utf8').toString('base64'), p: 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0' });
}

export interface InvocationMetrics {
  inputTokenCount: number;
  outputTokenCount: number;
  cacheReadInputTokenCount?: number;
  cacheWriteInputTokenCount?: number;
}

/**
 * A recorded Anthropic SSE stream as Bedrock streams it: each event's data in a chunk, Bedrock's
 * invocation metrics added to message_stop. Every other event's JSON is kept byte for byte.
 */
export function anthropicStreamFrames(sse: string, metrics: InvocationMetrics): Uint8Array[] {
  return sseEvents(sse).map((event) => {
    const data = /^data: ?(.*)$/m.exec(event)?.[1] ?? '';
    const parsed = JSON.parse(data) as { type: string };
    if (parsed.type !== 'message_stop') return anthropicChunkFrame(data);
    return anthropicChunkFrame(JSON.stringify({ ...parsed, 'amazon-bedrock-invocationMetrics': { ...metrics, invocationLatency: 512, firstByteLatency: 210 } }));
  });
}

/** A recorded ConverseStream (one `{"<type>": payload}` per line, as the SDK decodes them) as event-stream messages. */
export function converseStreamFrames(chunks: string): Uint8Array[] {
  return chunks
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => {
      const [[type, payload]] = Object.entries(JSON.parse(line) as Record<string, unknown>) as [[string, unknown]];
      return eventFrame(type, payload);
    });
}

export function concatFrames(frames: readonly Uint8Array[]): Uint8Array {
  return Buffer.concat(frames);
}
