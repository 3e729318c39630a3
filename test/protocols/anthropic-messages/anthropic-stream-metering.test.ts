import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { priceUsage } from '../../../shared/core/price-usage.ts';
import type { RateCardEntry } from '../../../shared/core/project-config.ts';
import { createCanonicalMeter } from '../../../shared/canonical/canonical-meter.ts';
import { SseEventSplitter } from '../../../shared/http/sse-event-splitter.ts';
import { anthropicMessagesProtocol } from '../../../shared/protocols/anthropic-messages/anthropic-messages-protocol.ts';
import { decodeSseEvent } from '../../../shared/transport/stream-decoder.ts';
import { presentation } from '../../canonical/support/translate.ts';
import { readFixture } from '../../support/fixtures.ts';
import { chunksFixtureEvents, sseFixtureEvents } from './anthropic-fixtures.ts';

/** A native Anthropic stream as the pipeline handles it: each event read once and metered, its bytes passed on. */
function createNativeMeter() {
  const reader = anthropicMessagesProtocol.createStreamReader();
  const canonicalMeter = createCanonicalMeter();
  const passThrough = anthropicMessagesProtocol.createPassThrough(presentation());
  return {
    push(raw: string): string {
      const event = decodeSseEvent(raw);
      const canonical = reader.push(event.payload ?? event.data);
      canonicalMeter.observe(canonical);
      return passThrough.push(event, canonical) as string;
    },
    result: () => canonicalMeter.result(),
  };
}

function meter(events: string[]) {
  const streamMeter = createNativeMeter();
  const forwarded = events.map((event) => streamMeter.push(event));
  return { forwarded, result: streamMeter.result() };
}

const usage = (promptTokens: number, completionTokens: number, extra: { cachedTokens?: number; cacheWriteTokens?: number; reasoningTokens?: number } = {}) => ({
  promptTokens,
  completionTokens,
  cachedTokens: extra.cachedTokens ?? 0,
  cacheWriteTokens: extra.cacheWriteTokens ?? 0,
  reasoningTokens: extra.reasoningTokens ?? 0,
  estimated: false,
});

const recordedStreams = [
  { name: 'messages-stream-text.sse', id: 'msg_01T8kTq7cYyYJeQ5DxcVUc6D', stopReason: 'end_turn', usage: usage(10, 4) },
  { name: 'messages-stream-thinking.sse', id: 'msg_01Eg56TYRnKCEgWtZu2yjR1t', stopReason: 'end_turn', usage: usage(46, 133) },
  { name: 'messages-stream-thinking-then-tool-use.sse', id: 'msg_01JdU4xqNHXL9QCFWkwCDKGr', stopReason: 'tool_use', usage: usage(598, 92, { reasoningTokens: 53 }) },
  { name: 'messages-stream-tool-use-input-json-delta.sse', id: 'msg_011Cd3pnzH359YUmWrJzaSwh', stopReason: 'tool_use', usage: usage(618, 59) },
  { name: 'messages-stream-parallel-tool-use-empty-input.sse', id: 'msg_01V2noLbAb2NgKnjaNw6Cn3w', stopReason: 'tool_use', usage: usage(542, 62) },
];

describe('a native Anthropic stream, metered from its canonical events', () => {
  it.each(recordedStreams)('reads usage from message_start and message_delta, stop reason and id of $name', ({ name, id, stopReason, usage: expected }) => {
    const { result } = meter(sseFixtureEvents(name));
    expect(result).toMatchObject({ usage: expected, upstreamId: id, finishReason: stopReason });
    expect(result.upstreamError).toBeUndefined();
  });

  it.each(recordedStreams.map(({ name }) => name))('passes every event of %s through byte-identical', (name) => {
    const events = sseFixtureEvents(name);
    const { forwarded } = meter(events);
    expect(forwarded).toEqual(events);
    expect(forwarded.join('')).toBe(readFixture(`anthropic/${name}`));
  });

  it('relays a recorded thinking stream byte-identical however the bytes are split, and meters it the same', () => {
    const wire = readFixture('anthropic/messages-stream-thinking-then-tool-use.sse');
    fc.assert(
      fc.property(fc.uniqueArray(fc.integer({ min: 1, max: wire.length - 1 }), { maxLength: 30 }), (cuts) => {
        const bounds = [0, ...cuts.sort((a, b) => a - b), wire.length];
        const splitter = new SseEventSplitter();
        const streamMeter = createNativeMeter();
        let relayed = '';
        for (let i = 1; i < bounds.length; i += 1) {
          for (const event of splitter.push(wire.slice(bounds[i - 1], bounds[i]))) relayed += streamMeter.push(event);
        }
        expect(relayed + splitter.flush()).toBe(wire);
        expect(streamMeter.result().usage).toEqual(usage(598, 92, { reasoningTokens: 53 }));
      }),
      { numRuns: 50 },
    );
  });

  it('takes the latest value of each usage field: the server-tool stream repeats input and cache counts in message_delta', () => {
    const { result } = meter(chunksFixtureEvents('messages-stream-cache-usage-server-tool.chunks.txt'));
    // message_start: input 2, cache creation 3068, cache read 0; message_delta: input 6, creation 3337, read 6289, output 198.
    expect(result).toMatchObject({
      usage: usage(6 + 3_337 + 6_289, 198, { cachedTokens: 6_289, cacheWriteTokens: 3_337 }),
      upstreamId: 'msg_011CdYfpjpVtBoXyXCQD1tQP',
      finishReason: 'end_turn',
    });
  });

  it('prices the server-tool stream with cache reads and cache writes at their own prices', () => {
    const { result } = meter(chunksFixtureEvents('messages-stream-cache-usage-server-tool.chunks.txt'));
    const rate: RateCardEntry = {
      slug: 'anthropic/claude-sonnet-5',
      inputPriceMicrosPer1k: 3_000,
      outputPriceMicrosPer1k: 15_000,
      cachedInputPriceMicrosPer1k: 300,
      cacheWriteInputPriceMicrosPer1k: 3_750,
    };
    expect(result.usage).toBeDefined();
    if (!result.usage) return;
    expect(priceUsage(result.usage, rate)).toBe(6 * 3_000 + 6_289 * 300 + 3_337 * 3_750 + 198 * 15_000);
  });

  it('passes the server-tool stream (code execution blocks) through unchanged', () => {
    const events = chunksFixtureEvents('messages-stream-cache-usage-server-tool.chunks.txt');
    expect(meter(events).forwarded).toEqual(events);
  });

  it('collects the generated tool input JSON for estimating', () => {
    expect(meter(sseFixtureEvents('messages-stream-tool-use-input-json-delta.sse')).result.completionText).toBe(
      'createIssue{"title": "Reproduce issue 13057"}',
    );
  });

  it('collects thinking and text deltas but not the signature', () => {
    const { completionText } = meter(sseFixtureEvents('messages-stream-thinking.sse')).result;
    expect(completionText.startsWith('The user wants two names for a pet pelican')).toBe(true);
    expect(completionText.endsWith('1. **Pouch** - references their iconic bill pouch\n2. **Pelé** - playful take on "pelican"')).toBe(true);
    expect(completionText).not.toContain('signature');
  });
});

describe('a native Anthropic stream that ends early or reports little', () => {
  const textEvents = sseFixtureEvents('messages-stream-text.sse');
  const errorFrame = `event: error\ndata: ${readFixture('anthropic/messages-stream-error-overloaded.data.json')}\n\n`;
  const beforeMessageDelta = textEvents.filter((event) => !/^event: message_(delta|stop)/.test(event));

  it('records the recorded mid-stream overloaded error, passes it through, and keeps the placeholder counts provisional', () => {
    const events = [...beforeMessageDelta, errorFrame];
    const { forwarded, result } = meter(events);
    expect(forwarded).toEqual(events);
    expect(result).toMatchObject({ upstreamError: { type: 'overloaded', message: 'Overloaded' }, provisionalUsage: usage(10, 2), completionText: 'Hello' });
    expect(result.usage).toBeUndefined();
    expect(result.finishReason).toBeUndefined();
  });

  it('reports no usage when the upstream sent none, so the caller estimates', () => {
    const withoutUsage = textEvents.filter((event) => !/^event: message_(start|delta)/.test(event));
    const { result } = meter(withoutUsage);
    expect(result.usage).toBeUndefined();
    expect(result.completionText).toBe('Hello');
  });

  it('keeps the message_start counts a message_delta omits or sends as null', () => {
    const start = textEvents[0] ?? '';
    const delta = 'event: message_delta\ndata: {"type":"message_delta","delta":{"stop_reason":"max_tokens"},"usage":{"input_tokens":null,"output_tokens":15}}\n\n';
    const { result } = meter([start, delta]);
    expect(result.usage).toEqual(usage(10, 15));
    expect(result.finishReason).toBe('max_tokens');
  });

  it('does not take the placeholder output count as final when message_delta reports no output_tokens', () => {
    const start = textEvents[0] ?? '';
    const delta = 'event: message_delta\ndata: {"type":"message_delta","delta":{"stop_reason":"end_turn"},"usage":{"input_tokens":10}}\n\n';
    const { result } = meter([start, delta]);
    expect(result.usage).toBeUndefined();
    expect(result.provisionalUsage).toEqual(usage(10, 2));
  });

  it('passes unknown events, comments and non-JSON data through and ignores them', () => {
    const odd = ['event: future_event\ndata: {"type":"future_event","x":1}\n\n', ': keep-alive\n\n', 'event: ping\ndata: not json\n\n'];
    const { forwarded, result } = meter(odd);
    expect(forwarded).toEqual(odd);
    expect(result).toEqual({ completionText: '' });
  });
});
