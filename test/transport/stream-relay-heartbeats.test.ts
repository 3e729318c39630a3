import { Readable } from 'node:stream';
import { describe, expect, it, vi } from 'vitest';
import { openAiStreamErrorFrame } from '../../shared/protocols/openai-chat/openai-errors.ts';
import { encoder, events, passThrough, upstreamOf , relayed } from './stream-relay-fixtures.ts';

describe('relayStream heartbeats', () => {
  it('sends a comment while the upstream is silent, on a timer that does not keep the process alive', async () => {
    const setTimeoutSpy = vi.spyOn(globalThis, 'setTimeout');
    try {
      const upstream = upstreamOf([], 'hang');
      const body = relayed(upstream.stream, { provider: 'openai', handler: passThrough, errorFrame: openAiStreamErrorFrame, onSettled: async () => undefined, heartbeatIntervalMs: 20 });
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
    const upstream = new Readable({
      highWaterMark: 0,
      read() {
        reads += 1;
        const next = () => this.push(pieces.shift() ?? null);
        if (reads === 1) release = next;
        else next();
      },
    });
    const body = relayed(upstream, { provider: 'openai', handler: passThrough, errorFrame: openAiStreamErrorFrame, onSettled: async () => undefined, heartbeatIntervalMs: 10 });
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
      const body = relayed(upstream.stream, { provider: 'openai', handler: passThrough, errorFrame: openAiStreamErrorFrame, onSettled: async () => undefined, heartbeatIntervalMs: 5 });
      const reader = body.getReader();
      const beat = reader.read();
      await vi.advanceTimersByTimeAsync(5);
      expect(new TextDecoder().decode((await beat).value)).toBe(': keep-alive\n\n');
      expect(vi.getTimerCount()).toBe(1);

      await reader.cancel('client left');

      expect(upstream.state.destroyed).toBe(true);
      expect(vi.getTimerCount()).toBe(0);
    } finally {
      vi.useRealTimers();
    }
  });
});
