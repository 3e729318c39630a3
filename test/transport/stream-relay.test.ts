import fc from 'fast-check';
import { describe, expect, it, vi } from 'vitest';
import { openAiStreamErrorFrame } from '../../shared/protocols/openai-chat/openai-errors.ts';
import { relayStream, type StreamEventHandler, type StreamSettlement } from '../../shared/transport/stream-relay.ts';
import { readFixture } from '../support/fixtures.ts';

const encoder = new TextEncoder();
const recorded = readFixture('openai-chat/chat-stream-text-include-usage.sse');
/** The recorded stream with multi-byte characters (2, 3 and 4 UTF-8 bytes) in one delta. */
const multiByte = recorded.replace('{"content":"The"}', '{"content":"héllo — 你好 🎉"}');
const multiByteBytes = encoder.encode(multiByte);
const events = recorded.split(/(?<=\n\n)/);

const passThrough: StreamEventHandler = { onEvent: (event) => event.raw, onEnd: () => '' };

/** A pull-based upstream that hands out the pieces one per read, then ends (or fails, or hangs). */
function upstreamOf(pieces: Uint8Array[], end: 'close' | 'error' | 'hang' = 'close') {
  const state = { cancelledWith: undefined as unknown, reads: 0 };
  const stream = new ReadableStream<Uint8Array>(
    {
      pull(controller) {
        const piece = pieces[state.reads];
        state.reads += 1;
        if (piece) return controller.enqueue(piece);
        if (end === 'close') return controller.close();
        if (end === 'error') return controller.error(new TypeError('terminated'));
        return new Promise<void>(() => {});
      },
      cancel(reason) {
        state.cancelledWith = reason;
      },
    },
    { highWaterMark: 0 },
  );
  return { stream, state };
}

function cutAt(bytes: Uint8Array, positions: number[]): Uint8Array[] {
  const bounds = [0, ...[...new Set(positions)].sort((a, b) => a - b), bytes.length];
  return bounds.slice(1).map((end, index) => bytes.slice(bounds[index], end)).filter((piece) => piece.length > 0);
}

function relay(pieces: Uint8Array[], handler: StreamEventHandler = passThrough, end: 'close' | 'error' | 'hang' = 'close') {
  const upstream = upstreamOf(pieces, end);
  const settlements: StreamSettlement[] = [];
  const body = relayStream(upstream.stream, {
    provider: 'openai',
    handler,
    errorFrame: openAiStreamErrorFrame,
    onSettled: async (settlement) => {
      await new Promise((resolve) => setTimeout(resolve, 5));
      settlements.push(settlement);
    },
  });
  return { body, settlements, upstream };
}

async function readAll(body: ReadableStream<Uint8Array>): Promise<Uint8Array> {
  return new Uint8Array(await new Response(body).arrayBuffer());
}

describe('relayStream with a pass-through handler', () => {
  it('reproduces the recorded stream byte-for-byte in one piece', async () => {
    const { body } = relay([encoder.encode(recorded)]);
    expect(new TextDecoder().decode(await readAll(body))).toBe(recorded);
  });

  it('reproduces a stream byte-for-byte however it is cut, cuts inside multi-byte characters included', async () => {
    const positions = fc.array(fc.integer({ min: 1, max: multiByteBytes.length - 1 }), { maxLength: 40 });
    await fc.assert(
      fc.asyncProperty(positions, async (cuts) => {
        const { body } = relay(cutAt(multiByteBytes, cuts));
        expect(Buffer.from(await readAll(body)).equals(Buffer.from(multiByteBytes))).toBe(true);
      }),
      { numRuns: 60 },
    );
  });

  it('reproduces a stream cut inside every byte of a multi-byte character', async () => {
    const start = multiByteBytes.indexOf(0xf0);
    for (let cut = start; cut <= start + 4; cut += 1) {
      const { body } = relay(cutAt(multiByteBytes, [cut]));
      expect(Buffer.from(await readAll(body)).equals(Buffer.from(multiByteBytes))).toBe(true);
    }
  });

  it('hands the handler whole events only, each exactly once', async () => {
    const seen: string[] = [];
    const { body } = relay(cutAt(multiByteBytes, [3, 10, 400, 401, 2000]), { onEvent: ({ raw }) => (seen.push(raw), raw), onEnd: () => '' });
    await readAll(body);
    expect(seen).toEqual(multiByte.split(/(?<=\n\n)/));
  });
});

describe('relayStream with a handler that changes one event', () => {
  const usageIndex = events.findIndex((event) => event.includes('"usage":{'));
  const pieces = cutAt(encoder.encode(recorded), [50, 51, 700, 3000, 8000]);

  it('drops only the dropped event', async () => {
    const { body } = relay(pieces, { onEvent: ({ raw }) => (raw.includes('"usage":{') ? '' : raw), onEnd: () => '' });
    const expected = events.filter((_event, index) => index !== usageIndex).join('');
    expect(new TextDecoder().decode(await readAll(body))).toBe(expected);
  });

  it('rewrites only the rewritten event, even when the handler answers asynchronously', async () => {
    const handler: StreamEventHandler = {
      onEvent: async ({ raw }) => (raw.includes('"usage":{') ? 'data: {"rewritten":true}\n\n' : raw),
      onEnd: async () => 'data: tail\n\n',
    };
    const expected = events.map((event, index) => (index === usageIndex ? 'data: {"rewritten":true}\n\n' : event)).join('');
    expect(new TextDecoder().decode(await readAll(relay(pieces, handler).body))).toBe(`${expected}data: tail\n\n`);
  });

  it('passes a final event that lacks its blank line through the handler too', async () => {
    const seen: string[] = [];
    const handler: StreamEventHandler = { onEvent: ({ raw }) => (seen.push(raw), raw.replace('[DONE]', '[OK]')), onEnd: () => '' };
    const { body } = relay([encoder.encode('data: {"a":1}\n\ndata: [DONE]')], handler);
    expect(new TextDecoder().decode(await readAll(body))).toBe('data: {"a":1}\n\ndata: [OK]');
    expect(seen).toEqual(['data: {"a":1}\n\n', 'data: [DONE]']);
  });

  it("ends a last event that lacks its blank line before appending the handler's closing text", async () => {
    const handler: StreamEventHandler = { onEvent: (event) => event.raw, onEnd: () => 'data: tail\n\n' };
    const { body } = relay([encoder.encode('data: {"a":1}\n\ndata: {"b":2}')], handler);
    expect(new TextDecoder().decode(await readAll(body))).toBe('data: {"a":1}\n\ndata: {"b":2}\n\ndata: tail\n\n');
  });
});

describe('relayStream when the upstream breaks off', () => {
  const whole = events.slice(0, 3).join('');
  const partial = events[3]?.slice(0, 40) ?? '';

  it('yields the whole events before, then exactly one error frame, then the end', async () => {
    const { body, settlements } = relay([encoder.encode(whole), encoder.encode(partial)], passThrough, 'error');
    const text = new TextDecoder().decode(await readAll(body));
    expect(settlements).toHaveLength(1);
    const settlement = settlements[0];
    if (settlement?.outcome !== 'failed') throw new Error(`expected a failed settlement, got ${JSON.stringify(settlement)}`);
    expect(settlement.error.code).toBe('upstream_stream_interrupted');
    expect(settlement.error.status).toBe(502);
    expect(text).toBe(whole + openAiStreamErrorFrame(settlement.error));
    expect(JSON.parse(text.slice(whole.length + 'data: '.length))).toEqual({
      error: { message: 'Provider "openai" broke off the stream.', type: 'upstream_error', code: 'upstream_stream_interrupted', param: null },
    });
  });

  it('does not call onEnd after a failure', async () => {
    const handler: StreamEventHandler = { onEvent: (event) => event.raw, onEnd: () => 'data: should-not-appear\n\n' };
    const text = new TextDecoder().decode(await readAll(relay([encoder.encode(whole)], handler, 'error').body));
    expect(text).not.toContain('should-not-appear');
  });
});

describe('relayStream settlement', () => {
  it("calls onSettled once with 'completed', and it has finished by the time the reader sees the end", async () => {
    const { body, settlements } = relay(cutAt(encoder.encode(recorded), [100, 5000]));
    const reader = body.getReader();
    const first = await reader.read();
    expect(first.done).toBe(false);
    expect(settlements).toEqual([]);
    for (;;) {
      const read = await reader.read();
      if (read.done) break;
    }
    expect(settlements).toEqual([{ outcome: 'completed' }]);
  });

  it("calls onSettled once with 'cancelled' and cancels the upstream when the client cancels", async () => {
    const { body, settlements, upstream } = relay([encoder.encode(events[0] ?? '')], passThrough, 'hang');
    const reader = body.getReader();
    expect((await reader.read()).done).toBe(false);
    await reader.cancel('client went away');
    expect(upstream.state.cancelledWith).toBe('client went away');
    expect(settlements).toEqual([{ outcome: 'cancelled' }]);
  });

  it('pulls from the upstream only as the client reads', async () => {
    const { body, upstream } = relay(events.map((event) => encoder.encode(event)));
    const reader = body.getReader();
    await reader.read();
    await new Promise((resolve) => setTimeout(resolve, 5));
    expect(upstream.state.reads).toBe(1);
    await reader.cancel();
  });
});

describe('relayStream heartbeats', () => {
  it('sends a comment while the upstream is silent, on a timer that does not keep the process alive', async () => {
    const setTimeoutSpy = vi.spyOn(globalThis, 'setTimeout');
    try {
      const upstream = upstreamOf([], 'hang');
      const body = relayStream(upstream.stream, { provider: 'openai', handler: passThrough, errorFrame: openAiStreamErrorFrame, onSettled: async () => undefined, heartbeatIntervalMs: 20 });
      const reader = body.getReader();

      const first = await reader.read();

      expect(new TextDecoder().decode(first.value)).toBe(': keep-alive\n\n');
      // The upstream's socket keeps a real stream's process alive; a silent stream's timer alone must not.
      const heartbeatTimers = setTimeoutSpy.mock.calls.flatMap((call, index) => (call[1] === 20 ? [setTimeoutSpy.mock.results[index]?.value as NodeJS.Timeout] : []));
      expect(heartbeatTimers.map((timer) => timer.hasRef())).toEqual([false]);
      await reader.cancel();
    } finally {
      setTimeoutSpy.mockRestore();
    }
  });

  it('keeps sending a comment at every interval while the upstream stays silent, and the events still follow', async () => {
    let release: (() => void) | undefined;
    const pieces = [encoder.encode(events[0] ?? '')];
    let reads = 0;
    const upstream = new ReadableStream<Uint8Array>(
      {
        async pull(controller) {
          reads += 1;
          if (reads === 1) await new Promise<void>((resolve) => (release = resolve));
          const piece = pieces.shift();
          if (piece) controller.enqueue(piece);
          else controller.close();
        },
      },
      { highWaterMark: 0 },
    );
    const body = relayStream(upstream, { provider: 'openai', handler: passThrough, errorFrame: openAiStreamErrorFrame, onSettled: async () => undefined, heartbeatIntervalMs: 10 });
    const reader = body.getReader();
    const decoder = new TextDecoder();

    const beats = [await reader.read(), await reader.read(), await reader.read()].map((read) => decoder.decode(read.value));
    release?.();
    let rest = '';
    for (let read = await reader.read(); !read.done; read = await reader.read()) rest += decoder.decode(read.value);

    expect(beats).toEqual([': keep-alive\n\n', ': keep-alive\n\n', ': keep-alive\n\n']);
    expect(rest.replaceAll(': keep-alive\n\n', '')).toBe(events[0]);
  });

  it('stops its heartbeats once the client has gone', async () => {
    vi.useFakeTimers();
    try {
      const upstream = upstreamOf([], 'hang');
      const body = relayStream(upstream.stream, { provider: 'openai', handler: passThrough, errorFrame: openAiStreamErrorFrame, onSettled: async () => undefined, heartbeatIntervalMs: 5 });
      const reader = body.getReader();
      const beat = reader.read();
      await vi.advanceTimersByTimeAsync(5);
      expect(new TextDecoder().decode((await beat).value)).toBe(': keep-alive\n\n');
      expect(vi.getTimerCount()).toBe(1);

      await reader.cancel('client left');

      expect(upstream.state.cancelledWith).toBe('client left');
      expect(vi.getTimerCount()).toBe(0);
    } finally {
      vi.useRealTimers();
    }
  });
});

describe('relayStream with a handler that fails', () => {
  it('ends the stream with one error frame and settles it as failed, so the request is still metered', async () => {
    let seen = 0;
    const failing: StreamEventHandler = {
      onEvent: (event) => {
        seen += 1;
        if (seen === 2) throw new Error('translator bug');
        return event.raw;
      },
      onEnd: () => '',
    };
    const { body, settlements } = relay([encoder.encode(recorded)], failing);

    const text = new TextDecoder().decode(await readAll(body));

    expect(text).toContain('"code":"stream_relay_failed"');
    expect(text).not.toContain('translator bug');
    expect(settlements).toHaveLength(1);
    expect(settlements[0]).toMatchObject({ outcome: 'failed' });
  });
});

describe('relayStream time limits', () => {
  /** A relay with time limits over an upstream; what it settles is kept. */
  function limitedRelay(upstream: ReadableStream<Uint8Array>, timeLimits: { remainingMs: number; idleMs: number }) {
    const settlements: StreamSettlement[] = [];
    const body = relayStream(upstream, {
      provider: 'openai',
      handler: passThrough,
      errorFrame: openAiStreamErrorFrame,
      onSettled: async (settlement) => void settlements.push(settlement),
      heartbeatIntervalMs: 10,
      timeLimits,
    });
    return { body, settlements };
  }

  function failureOf(settlements: StreamSettlement[]) {
    expect(settlements).toHaveLength(1);
    const settlement = settlements[0];
    if (settlement?.outcome !== 'failed') throw new Error(`expected a failed settlement, got ${JSON.stringify(settlement)}`);
    return settlement.error;
  }

  it('ends a stream whose upstream falls silent for longer than the idle limit: the upstream is cancelled, one upstream_timeout frame, one settlement', async () => {
    const upstream = upstreamOf([encoder.encode(events[0] ?? '')], 'hang');
    const { body, settlements } = limitedRelay(upstream.stream, { remainingMs: 60_000, idleMs: 50 });

    const text = new TextDecoder().decode(await readAll(body));

    const error = failureOf(settlements);
    expect(error).toMatchObject({ code: 'upstream_timeout', status: 502, message: 'Provider "openai" sent nothing for 50 ms.' });
    // Heartbeats went out while it was silent; they hid the silence from the client, not from the limit.
    expect(text).toContain(': keep-alive\n\n');
    expect(text.replaceAll(': keep-alive\n\n', '')).toBe((events[0] ?? '') + openAiStreamErrorFrame(error));
    expect(upstream.state.cancelledWith).toBe(error);
  });

  it('ends a stream still going at the request deadline, though its upstream never stops sending', async () => {
    let cancelledWith: unknown;
    const pings = new ReadableStream<Uint8Array>(
      {
        async pull(controller) {
          await new Promise((resolve) => setTimeout(resolve, 2));
          controller.enqueue(encoder.encode(': ping\n\n'));
        },
        cancel: (reason) => void (cancelledWith = reason),
      },
      { highWaterMark: 0 },
    );
    const { body, settlements } = limitedRelay(pings, { remainingMs: 50, idleMs: 60_000 });

    const text = new TextDecoder().decode(await readAll(body));

    const error = failureOf(settlements);
    expect(error).toMatchObject({ code: 'upstream_timeout', message: `Provider "openai" did not finish its answer within the request's deadline.` });
    expect(text.startsWith(': ping\n\n')).toBe(true);
    expect(text.endsWith(openAiStreamErrorFrame(error))).toBe(true);
    expect(cancelledWith).toBe(error);
  });

  it('settles at the deadline even while the client is not reading, and the client then reads the error frame', async () => {
    const upstream = upstreamOf([encoder.encode(events[0] ?? '')], 'hang');
    const { body, settlements } = limitedRelay(upstream.stream, { remainingMs: 20, idleMs: 60_000 });
    const reader = body.getReader();
    expect(new TextDecoder().decode((await reader.read()).value)).toBe(events[0]);

    await vi.waitFor(() => expect(settlements).toHaveLength(1));

    let rest = '';
    for (let read = await reader.read(); !read.done; read = await reader.read()) rest += new TextDecoder().decode(read.value);
    expect(rest.replaceAll(': keep-alive\n\n', '')).toBe(openAiStreamErrorFrame(failureOf(settlements)));
  });

  it('leaves a stream that ends in time as it was, and stops its timers', async () => {
    vi.useFakeTimers();
    try {
      const upstream = upstreamOf([encoder.encode(recorded)]);
      const { body, settlements } = limitedRelay(upstream.stream, { remainingMs: 60_000, idleMs: 60_000 });
      expect(new TextDecoder().decode(await readAll(body))).toBe(recorded);
      expect(settlements).toEqual([{ outcome: 'completed' }]);
      expect(vi.getTimerCount()).toBe(0);
    } finally {
      vi.useRealTimers();
    }
  });
});
