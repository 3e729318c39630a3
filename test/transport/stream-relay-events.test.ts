import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { StreamEventHandler } from '../../shared/transport/stream-relay.ts';
import { encoder, recorded, multiByte, multiByteBytes, events, cutAt, relay, readAll } from './stream-relay-fixtures.ts';

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
