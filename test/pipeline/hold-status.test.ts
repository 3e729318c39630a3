import { describe, expect, it } from 'vitest';
import { GatewayError } from '../../shared/core/errors.ts';
import { holdStatusUntilContent } from '../../shared/pipeline/hold-status.ts';

const encoder = new TextEncoder();
const failure = new GatewayError('rate_limited', 'The provider is rate limiting requests; retry shortly: slow down', { code: 'upstream_rate_limited', status: 429 });

/** A stream of the given pieces, one a read, that remembers whether it was cancelled. */
function pieces(texts: string[], onRead: (index: number) => void = () => {}) {
  let index = 0;
  const state = { cancelled: false };
  const stream = new ReadableStream<Uint8Array>(
    {
      pull(controller) {
        onRead(index);
        const text = texts[index++];
        if (text === undefined) controller.close();
        else controller.enqueue(encoder.encode(text));
      },
      cancel: () => void (state.cancelled = true),
    },
    { highWaterMark: 0 },
  );
  return { stream, state };
}

describe('holdStatusUntilContent', () => {
  it('answers with the whole stream once its first bytes exist, empty pieces skipped', async () => {
    const { stream } = pieces(['', 'data: a\n\n', 'data: [DONE]\n\n']);
    const held = await holdStatusUntilContent(stream, () => undefined);
    expect('body' in held && (await new Response(held.body).text())).toBe('data: a\n\ndata: [DONE]\n\n');
  });

  it('answers with the failure that came before any bytes, and lets the stream go', async () => {
    let held: GatewayError | undefined;
    const { stream } = pieces(['', ''], (index) => {
      if (index === 1) held = failure;
    });
    expect(await holdStatusUntilContent(stream, () => held)).toEqual({ failure });
  });

  it('commits with a heartbeat (the upstream thinks in silence): a later failure is the stream’s to tell', async () => {
    let held: GatewayError | undefined;
    const { stream, state } = pieces([': keep-alive\n\n', 'data: late\n\n'], (index) => {
      if (index === 1) held = failure;
    });
    const answer = await holdStatusUntilContent(stream, () => held);
    expect('body' in answer).toBe(true);
    expect(state.cancelled).toBe(false);
  });

  it('cancels the stream when a failure is held though bytes were read (a heartbeat before the failure was known)', async () => {
    let held: GatewayError | undefined;
    const { stream, state } = pieces([': keep-alive\n\n'], (index) => {
      if (index === 0) held = failure;
    });
    expect(await holdStatusUntilContent(stream, () => held)).toEqual({ failure });
    expect(state.cancelled).toBe(true);
  });
});
