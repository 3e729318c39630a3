import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { GatewayError } from '../../shared/core/errors.ts';
import { openAiStreamErrorFrame } from '../../shared/protocols/openai-chat/openai-errors.ts';
import { relayUpstreamStream } from '../../shared/upstream/relay-stream.ts';
import { readFixture } from '../support/fixtures.ts';

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** An upstream that hands out one chunk per pull, then ends or, when `failWith` is given, errors. */
function upstreamOf(chunks: readonly Uint8Array[], failWith?: unknown) {
  let next = 0;
  const cancelled: unknown[] = [];
  const stream = new ReadableStream<Uint8Array>(
    {
      pull(controller) {
        const chunk = chunks[next++];
        if (chunk) controller.enqueue(chunk);
        else if (failWith !== undefined) controller.error(failWith);
        else controller.close();
      },
      cancel(reason) {
        cancelled.push(reason);
      },
    },
    { highWaterMark: 0 },
  );
  return { stream, cancelled };
}

async function readAll(stream: ReadableStream<Uint8Array>): Promise<Uint8Array[]> {
  const chunks: Uint8Array[] = [];
  for await (const chunk of stream) chunks.push(chunk);
  return chunks;
}

const noErrors = {
  provider: 'openai',
  errorFrame: (): string => {
    throw new Error('no error frame expected');
  },
};

describe('relayUpstreamStream', () => {
  it('passes the bytes through unchanged and in order', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(fc.uint8Array({ minLength: 1, maxLength: 64 }), { maxLength: 20 }), async (chunks) => {
        const relayed = await readAll(relayUpstreamStream(upstreamOf(chunks).stream, noErrors));
        expect(relayed).toEqual(chunks);
      }),
    );
  });

  it('relays a recorded OpenAI stream byte for byte, however it is chunked', async () => {
    const recorded = encoder.encode(readFixture('openai-chat/chat-stream-text-include-usage.sse'));
    await fc.assert(
      fc.asyncProperty(fc.array(fc.integer({ min: 1, max: recorded.length - 1 }), { maxLength: 12 }), async (cuts) => {
        const bounds = [0, ...[...new Set(cuts)].sort((a, b) => a - b), recorded.length];
        const chunks = bounds.slice(1).map((end, i) => recorded.slice(bounds[i], end));
        const relayed = await readAll(relayUpstreamStream(upstreamOf(chunks).stream, noErrors));
        expect(decoder.decode(Buffer.concat(relayed))).toBe(decoder.decode(recorded));
      }),
    );
  });

  it('after a mid-stream failure yields the bytes so far, then exactly one error frame, then ends', async () => {
    const chunks = [encoder.encode('data: {"a":1}\n\n'), encoder.encode('data: {"a":2}\n\n')];
    const upstream = upstreamOf(chunks, new Error('ECONNRESET'));
    const frames: GatewayError[] = [];
    const relay = relayUpstreamStream(upstream.stream, {
      provider: 'openai',
      errorFrame: (error) => {
        frames.push(error);
        return 'event: error\n\n';
      },
    });
    const relayed = (await readAll(relay)).map((chunk) => decoder.decode(chunk));
    expect(relayed).toEqual(['data: {"a":1}\n\n', 'data: {"a":2}\n\n', 'event: error\n\n']);
    expect(frames).toHaveLength(1);
  });

  it('hands the error frame a 502 upstream_stream_interrupted naming the provider, with the failure as cause', async () => {
    const failure = new Error('terminated');
    const frames: GatewayError[] = [];
    const relay = relayUpstreamStream(upstreamOf([], failure).stream, {
      provider: 'groq',
      errorFrame: (error) => {
        frames.push(error);
        return '';
      },
    });
    await readAll(relay);
    expect(frames[0]?.status).toBe(502);
    expect(frames[0]?.code).toBe('upstream_stream_interrupted');
    expect(frames[0]?.message).toBe('Provider "groq" broke off the stream.');
    expect(frames[0]?.cause).toBe(failure);
  });

  it('ends an interrupted OpenAI stream with an OpenAI SSE error frame', async () => {
    const relay = relayUpstreamStream(upstreamOf([encoder.encode('data: {"x":1}\n\n')], new Error('reset')).stream, {
      provider: 'openai',
      errorFrame: openAiStreamErrorFrame,
    });
    const text = decoder.decode(Buffer.concat(await readAll(relay)));
    expect(text).toBe(
      'data: {"x":1}\n\n' +
        'data: {"error":{"message":"Provider \\"openai\\" broke off the stream.","type":"upstream_error","code":"upstream_stream_interrupted","param":null}}\n\n',
    );
  });

  it('reads from the upstream only as the client reads', async () => {
    let pulls = 0;
    const endless = new ReadableStream<Uint8Array>(
      {
        pull(controller) {
          pulls++;
          controller.enqueue(encoder.encode('x'));
        },
      },
      { highWaterMark: 0 },
    );
    const reader = relayUpstreamStream(endless, noErrors).getReader();
    for (let i = 0; i < 3; i++) await reader.read();
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(pulls).toBeLessThanOrEqual(5);
    await reader.cancel();
  });

  it('cancels the upstream with the reason when the client goes away', async () => {
    const upstream = upstreamOf([encoder.encode('a'), encoder.encode('b')]);
    const reader = relayUpstreamStream(upstream.stream, noErrors).getReader();
    await reader.read();
    await reader.cancel('client disconnected');
    expect(upstream.cancelled).toEqual(['client disconnected']);
  });
});
