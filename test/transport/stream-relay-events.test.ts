import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Readable } from 'node:stream';
import { openAiStreamErrorFrame } from '../../shared/protocols/openai-chat/openai-errors.ts';
import type { StreamEventHandler, StreamSettlement } from '../../shared/transport/stream-relay.ts';
import { encoder, recorded, multiByte, multiByteBytes, events, cutAt, relay, readAll, relayed } from './stream-relay-fixtures.ts';

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

describe('relayStream with a handler that answers some events later (a promise)', () => {
  const later = (text: string) => new Promise<string>((resolve) => setTimeout(() => resolve(text), 2));

  it('reads on after events that gave nothing to send, and ends, completed', async () => {
    // Only the last event is sent, and every event's text comes later: nothing the client reads asks for more.
    const handler: StreamEventHandler = { onEvent: (event) => later(event.raw.includes('[DONE]') ? event.raw : ''), onEnd: () => '' };
    const { body, settlements } = relay(events.map((event) => encoder.encode(event)), handler);
    expect(new TextDecoder().decode(await readAll(body))).toBe('data: [DONE]\n\n');
    expect(settlements).toEqual([{ outcome: 'completed' }]);
  });

  it('sends the last event before the closing frames, though the upstream ended while it was handled', async () => {
    const last = events.at(-1) ?? '';
    const handler: StreamEventHandler = {
      onEvent: (event) => (event.raw === last ? later(event.raw) : event.raw),
      onEnd: () => 'data: closing\n\n',
      cutOff: () => false,
    };
    // The whole body and its end at once (a short answer in one packet): the end is known as the last chunk is read.
    const upstream = new Readable({
      read() {
        this.push(encoder.encode(recorded));
        this.push(null);
      },
    });
    const settlements: StreamSettlement[] = [];
    const body = relayed(upstream, { provider: 'openai', handler, errorFrame: openAiStreamErrorFrame, onSettled: async (settlement) => void settlements.push(settlement) });
    expect(new TextDecoder().decode(await readAll(body))).toBe(`${recorded}data: closing\n\n`);
    expect(settlements).toEqual([{ outcome: 'completed' }]);
  });
});
