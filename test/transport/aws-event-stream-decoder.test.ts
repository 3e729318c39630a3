import { describe, expect, it } from 'vitest';
import { GatewayError } from '../../shared/core/errors.ts';
import { createAwsEventStreamDecoder, type EventStreamMessage } from '../../shared/transport/aws-event-stream-decoder.ts';
import { concatFrames, converseStreamFrames, eventFrame, exceptionFrame } from '../support/bedrock-event-stream.ts';
import { readFixture } from '../support/fixtures.ts';

/** A decoder that hands back each message it decoded, as the message itself. */
async function collectingDecoder() {
  const seen: EventStreamMessage[] = [];
  const decoder = await createAwsEventStreamDecoder((message) => {
    seen.push(message);
    return { raw: message.body, data: message.body, payload: undefined };
  });
  return { decoder, seen };
}

const recorded = converseStreamFrames(readFixture('bedrock/converse-stream-text.chunks.txt'));

describe('createAwsEventStreamDecoder', () => {
  it('decodes every message of a recorded ConverseStream with its event type and JSON payload', async () => {
    const { decoder, seen } = await collectingDecoder();
    const events = [...decoder.push(concatFrames(recorded)), ...decoder.end()];

    expect(events).toHaveLength(recorded.length);
    expect(seen.map((message) => message.type)).toEqual(['messageStart', ...Array(12).fill('contentBlockDelta'), 'contentBlockStop', 'messageStop', 'metadata']);
    expect(seen.every((message) => message.messageType === 'event')).toBe(true);
    expect(JSON.parse(seen[1]?.body ?? '')).toEqual({ contentBlockIndex: 0, delta: { text: 'Let' } });
  });

  it('gives the same messages whatever the split of the bytes, one byte at a time included', async () => {
    const bytes = concatFrames(recorded.slice(0, 4));
    const whole = await collectingDecoder();
    whole.decoder.push(bytes);
    for (const size of [1, 3, 7, 64]) {
      const split = await collectingDecoder();
      for (let offset = 0; offset < bytes.byteLength; offset += size) split.decoder.push(bytes.subarray(offset, offset + size));
      expect(split.decoder.end()).toEqual([]);
      expect(split.seen, `pieces of ${size} bytes`).toEqual(whole.seen);
    }
  });

  it('reads an exception message made by another encoder (vercel/ai) with its exception type', async () => {
    const { decoder, seen } = await collectingDecoder();
    decoder.push(Buffer.from(readFixture('bedrock/model-stream-error-exception.eventstream.base64.txt').trim(), 'base64'));

    expect(seen).toEqual([
      { messageType: 'exception', type: 'modelStreamErrorException', body: '{"message":"Model Stream Error","originalStatusCode":500,"originalMessage":"The model stream failed."}' },
    ]);
  });

  it('refuses a message whose checksum does not match, as an upstream error', async () => {
    const frame = Buffer.from(exceptionFrame('throttlingException', 'Too many requests'));
    frame[frame.byteLength - 10] = (frame[frame.byteLength - 10] ?? 0) ^ 0xff;
    const { decoder } = await collectingDecoder();

    expect(() => decoder.push(frame)).toThrow(GatewayError);
    const bare = await createAwsEventStreamDecoder(() => undefined);
    expect(() => bare.push(frame)).toThrow(/event stream is broken/);
  });

  it('refuses a stream that ends inside a message, and forgets a partial one when told to', async () => {
    const frame = eventFrame('messageStart', { role: 'assistant' });
    const cut = await collectingDecoder();
    cut.decoder.push(frame.subarray(0, frame.byteLength - 3));
    expect(() => cut.decoder.end()).toThrow(/ended inside a message/);

    const discarded = await collectingDecoder();
    discarded.decoder.push(frame.subarray(0, 5));
    discarded.decoder.discard();
    expect(discarded.decoder.push(frame)).toHaveLength(1);
  });
});
