import { describe, expect, it } from 'vitest';
import { GatewayError } from '../../shared/core/errors.ts';
import { relayBytes } from '../../shared/transport/bytes-relay.ts';
import type { StreamSettlement } from '../../shared/transport/stream-relay.ts';

const audio = new Uint8Array([0x49, 0x44, 0x33, 0x04]);

/** An upstream body that hands out its chunks, then ends or goes silent; what cancelled it is kept. */
function upstreamOf(chunks: Uint8Array[], end: 'close' | 'hang') {
  const state = { cancelledWith: undefined as unknown };
  const stream = new ReadableStream<Uint8Array>(
    {
      pull(controller) {
        const chunk = chunks.shift();
        if (chunk) return controller.enqueue(chunk);
        if (end === 'close') return controller.close();
        return new Promise<void>(() => {});
      },
      cancel: (reason) => void (state.cancelledWith = reason),
    },
    { highWaterMark: 0 },
  );
  return { stream, state };
}

function relay(upstream: ReadableStream<Uint8Array>, remainingMs: number, idleMs?: number) {
  const settlements: StreamSettlement[] = [];
  const observed: number[] = [];
  const body = relayBytes(upstream, { provider: 'openai', observe: (chunk) => void observed.push(chunk.byteLength), onSettled: async (settlement) => void settlements.push(settlement), timeLimits: { remainingMs, idleMs } });
  return { body, settlements, observed };
}

describe('relayBytes', () => {
  it('relays a body that ends before the deadline byte for byte and settles it completed', async () => {
    const { body, settlements, observed } = relay(upstreamOf([audio, audio], 'close').stream, 60_000);
    expect(new Uint8Array(await new Response(body).arrayBuffer())).toEqual(new Uint8Array([...audio, ...audio]));
    expect(settlements).toEqual([{ outcome: 'completed' }]);
    expect(observed).toEqual([4, 4]);
  });

  it("fails the client's body with upstream_timeout when the upstream is still sending at the deadline, cancels it, and settles once", async () => {
    const upstream = upstreamOf([audio], 'hang');
    const { body, settlements } = relay(upstream.stream, 30);
    const reader = body.getReader();
    expect((await reader.read()).value).toEqual(audio);

    const failure = await reader.read().then(
      () => undefined,
      (error: unknown) => error,
    );

    expect(failure).toBeInstanceOf(GatewayError);
    expect(failure).toMatchObject({ code: 'upstream_timeout', status: 502 });
    expect(settlements).toEqual([{ outcome: 'failed', error: failure }]);
    expect(upstream.state.cancelledWith).toBe(failure);
  });

  it("fails the client's body with upstream_timeout when the upstream is silent longer than the idle limit, cancels it, and settles once", async () => {
    const upstream = upstreamOf([audio], 'hang');
    const { body, settlements } = relay(upstream.stream, 60_000, 30);
    const reader = body.getReader();
    expect((await reader.read()).value).toEqual(audio);

    const failure = await reader.read().then(
      () => undefined,
      (error: unknown) => error,
    );

    expect(failure).toMatchObject({ code: 'upstream_timeout', status: 502, message: 'Provider "openai" sent nothing for 30 ms.' });
    expect(settlements).toEqual([{ outcome: 'failed', error: failure }]);
    expect(upstream.state.cancelledWith).toBe(failure);
  });

  it('does not count a client that reads slowly as a silent upstream', async () => {
    const { body, settlements } = relay(upstreamOf([audio, audio], 'close').stream, 60_000, 20);
    const reader = body.getReader();
    expect((await reader.read()).value).toEqual(audio);
    // Longer than the idle limit between two reads of the client: no upstream read was pending.
    await new Promise((resolve) => setTimeout(resolve, 60));
    expect((await reader.read()).value).toEqual(audio);
    expect((await reader.read()).done).toBe(true);
    expect(settlements).toEqual([{ outcome: 'completed' }]);
  });
});
