import type { EventStreamCodec } from '@smithy/eventstream-codec';
import { fromUtf8, toUtf8 } from '@smithy/util-utf8';
import { GatewayError } from '../core/errors.ts';
import type { StreamDecoder, UpstreamEvent } from './stream-decoder.ts';

/** One message of an AWS event stream, as its headers name it. */
export interface EventStreamMessage {
  /** `event`, `exception` or `error`. */
  messageType: string;
  /** An event's type (`chunk`, `contentBlockDelta`, …) or an exception's (`throttlingException`, …). */
  type: string;
  /** The payload's text (JSON for every Bedrock message). */
  body: string;
}

/** A message's total length is its first four bytes (big-endian): the codec takes one whole message at a time. */
const PRELUDE_LENGTH_BYTES = 4;
/** Prelude (12 bytes) and message checksum (4): the smallest message there is. */
const MINIMUM_MESSAGE_BYTES = 16;

/**
 * AWS's binary event-stream framing (Bedrock's InvokeModelWithResponseStream and ConverseStream) as a
 * stream decoder: bytes are gathered until a whole message has arrived, then the AWS SDK's codec decodes
 * it (checking both checksums and parsing its typed headers), and `toEvent` says what the message is as
 * an upstream event for the protocol's reader (undefined to skip it). The codec loads with the first
 * such stream: only Bedrock answers need it, and at import it would lengthen every route group's cold start.
 */
export async function createAwsEventStreamDecoder(toEvent: (message: EventStreamMessage) => UpstreamEvent | undefined): Promise<StreamDecoder> {
  const { EventStreamCodec } = await import('@smithy/eventstream-codec');
  const codec = new EventStreamCodec(toUtf8, fromUtf8);
  let pending: Uint8Array = new Uint8Array(0);

  function decodeWhole(): UpstreamEvent[] {
    const events: UpstreamEvent[] = [];
    while (pending.byteLength >= PRELUDE_LENGTH_BYTES) {
      const length = new DataView(pending.buffer, pending.byteOffset, pending.byteLength).getUint32(0, false);
      if (length < MINIMUM_MESSAGE_BYTES) throw brokenStream(`a message announced ${length} bytes`);
      if (pending.byteLength < length) break;
      const event = toEvent(decodeMessage(codec, pending.subarray(0, length)));
      if (event) events.push(event);
      pending = pending.subarray(length);
    }
    return events;
  }

  return {
    push(bytes) {
      pending = concat(pending, bytes);
      return decodeWhole();
    },
    end() {
      const events = decodeWhole();
      if (pending.byteLength > 0) throw brokenStream('the stream ended inside a message');
      return events;
    },
    discard() {
      pending = new Uint8Array(0);
    },
  };
}

function decodeMessage(codec: EventStreamCodec, bytes: Uint8Array): EventStreamMessage {
  let decoded;
  try {
    decoded = codec.decode(bytes);
  } catch (cause) {
    throw brokenStream(cause instanceof Error ? cause.message : 'a message could not be decoded', cause);
  }
  const header = (name: string) => {
    const value = decoded.headers[name]?.value;
    return typeof value === 'string' ? value : undefined;
  };
  const messageType = header(':message-type') ?? 'event';
  // Unmodelled errors carry their code and message in headers rather than the payload.
  if (messageType === 'error') {
    return { messageType, type: header(':error-code') ?? 'InternalServerException', body: JSON.stringify({ message: header(':error-message') ?? '' }) };
  }
  const type = (messageType === 'exception' ? header(':exception-type') : header(':event-type')) ?? '';
  return { messageType, type, body: toUtf8(decoded.body) };
}

function brokenStream(reason: string, cause?: unknown): GatewayError {
  return new GatewayError('upstream', `The provider's event stream is broken: ${reason}.`, { code: 'upstream_invalid_stream', cause });
}

function concat(head: Uint8Array, tail: Uint8Array): Uint8Array {
  if (head.byteLength === 0) return tail;
  const joined = new Uint8Array(head.byteLength + tail.byteLength);
  joined.set(head, 0);
  joined.set(tail, head.byteLength);
  return joined;
}
