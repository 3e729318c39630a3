import { once } from 'node:events';
import { describe, expect, it } from 'vitest';
import { openAiStreamErrorFrame } from '../../shared/protocols/openai-chat/openai-errors.ts';
import { relayStream, type StreamEventHandler, type StreamSettlement } from '../../shared/transport/stream-relay.ts';
import { encoder, recorded, events, passThrough, cutAt, relay, readAll, upstreamOf , relayed } from './stream-relay-fixtures.ts';

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

  it('awaits an error frame given as a promise (one that shows the final usage): it ends the stream, and the request settles as failed', async () => {
    const settlements: StreamSettlement[] = [];
    const usageFrame = 'data: {"usage":"final"}\n\n';
    const body = relayed(upstreamOf([encoder.encode(whole), encoder.encode(partial)], 'error').stream, {
      provider: 'openai',
      handler: passThrough,
      errorFrame: async (error) => usageFrame + openAiStreamErrorFrame(error),
      onSettled: async (settlement) => void settlements.push(settlement),
    });
    const text = new TextDecoder().decode(await readAll(body));
    const settlement = settlements[0];
    if (settlements.length !== 1 || settlement?.outcome !== 'failed') throw new Error(`expected one failed settlement, got ${JSON.stringify(settlements)}`);
    expect(text).toBe(whole + usageFrame + openAiStreamErrorFrame(settlement.error));
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

  it("calls onSettled once with 'cancelled' and lets the upstream go when the client's side is destroyed, before it closes", async () => {
    const upstream = upstreamOf([encoder.encode(events[0] ?? '')], 'hang');
    const settlements: StreamSettlement[] = [];
    const body = relayStream(upstream.stream, {
      provider: 'openai',
      handler: passThrough,
      errorFrame: openAiStreamErrorFrame,
      onSettled: async (settlement) => {
        await new Promise((resolve) => setTimeout(resolve, 5));
        settlements.push(settlement);
      },
    });
    await once(body, 'readable');
    expect(body.read()).not.toBeNull();
    // What a pipe does when the client goes away: the relay is destroyed, and closes once it has settled.
    body.destroy();
    await once(body, 'close');
    expect(upstream.state.destroyed).toBe(true);
    expect(settlements).toEqual([{ outcome: 'cancelled' }]);
  });

  it('holds the upstream while the client does not read: at most one event is read ahead', async () => {
    const { body, upstream } = relay(events.map((event) => encoder.encode(event)));
    const reader = body.getReader();
    await reader.read();
    await new Promise((resolve) => setTimeout(resolve, 5));
    expect(upstream.state.reads).toBeLessThanOrEqual(2);
    expect(events.length).toBeGreaterThan(4);
    await reader.cancel();
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

describe('relayStream when the upstream closes before its answer is complete', () => {
  const whole = events.slice(0, 3).join('');
  const cutOffHandler = (ended: string[]): StreamEventHandler => ({ onEvent: (event) => event.raw, onEnd: () => (ended.push('onEnd'), 'data: [DONE]\n\n'), cutOff: () => true });

  it('yields the events it sent, then one error frame instead of the closing frames, and settles as failed', async () => {
    const ended: string[] = [];
    const { body, settlements } = relay([encoder.encode(whole)], cutOffHandler(ended));
    const text = new TextDecoder().decode(await readAll(body));
    const settlement = settlements[0];
    if (settlement?.outcome !== 'failed') throw new Error(`expected a failed settlement, got ${JSON.stringify(settlement)}`);
    expect(settlement.error).toMatchObject({ code: 'upstream_stream_interrupted', status: 502, message: 'Provider "openai" closed the stream before the answer was complete.' });
    expect(text).toBe(whole + openAiStreamErrorFrame(settlement.error));
    expect(ended).toEqual([]);
  });

  it('keeps a last event that came without its blank line apart from the error frame', async () => {
    const last = events[3] ?? '';
    const { body, settlements } = relay([encoder.encode(whole + last.trimEnd())], cutOffHandler([]));
    const text = new TextDecoder().decode(await readAll(body));
    const settlement = settlements[0];
    if (settlement?.outcome !== 'failed') throw new Error('expected a failed settlement');
    expect(text).toBe(`${whole}${last.trimEnd()}\n\n${openAiStreamErrorFrame(settlement.error)}`);
  });

  it('ends normally when the handler finds the answer complete', async () => {
    const { body, settlements } = relay([encoder.encode(whole)], { onEvent: (event) => event.raw, onEnd: () => 'data: [DONE]\n\n', cutOff: () => false });
    expect(new TextDecoder().decode(await readAll(body))).toBe(`${whole}data: [DONE]\n\n`);
    expect(settlements).toEqual([{ outcome: 'completed' }]);
  });
});
