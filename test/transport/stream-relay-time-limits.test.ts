import { Readable } from 'node:stream';
import { describe, expect, it, vi } from 'vitest';
import { openAiStreamErrorFrame } from '../../shared/protocols/openai-chat/openai-errors.ts';
import { type StreamSettlement } from '../../shared/transport/stream-relay.ts';
import { encoder, recorded, events, passThrough, upstreamOf, readAll , relayed } from './stream-relay-fixtures.ts';

describe('relayStream time limits', () => {
  /** A relay with time limits over an upstream; what it settles is kept. */
  function limitedRelay(upstream: Readable, timeLimits: { remainingMs: number; idleMs: number }) {
    const settlements: StreamSettlement[] = [];
    const body = relayed(upstream, {
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
    expect(upstream.state.destroyed).toBe(true);
  });

  it('ends a stream still going at the request deadline, though its upstream never stops sending', async () => {
    let destroyed = false;
    const pings = new Readable({
      highWaterMark: 0,
      read() {
        setTimeout(() => this.push(encoder.encode(': ping\n\n')), 2);
      },
      destroy(error, callback) {
        destroyed = true;
        callback(error);
      },
    });
    const { body, settlements } = limitedRelay(pings, { remainingMs: 50, idleMs: 60_000 });

    const text = new TextDecoder().decode(await readAll(body));

    const error = failureOf(settlements);
    expect(error).toMatchObject({ code: 'upstream_timeout', message: `Provider "openai" did not finish its answer within the request's deadline.` });
    expect(text.startsWith(': ping\n\n')).toBe(true);
    expect(text.endsWith(openAiStreamErrorFrame(error))).toBe(true);
    expect(destroyed).toBe(true);
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
