import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { SseEventSplitter, sseEventData } from '../../shared/http/sse-event-splitter.ts';
import { readFixture } from '../support/fixtures.ts';

const recorded = readFixture('openai-chat/chat-stream-tool-calls-include-usage.sse');

/** The recorded stream's events, cut at each "\n\n" (each kept with its terminator). */
const recordedEvents = recorded.split(/(?<=\n\n)/);

function splitAll(pieces: string[]): { events: string[]; rest: string } {
  const splitter = new SseEventSplitter();
  const events = pieces.flatMap((piece) => splitter.push(piece));
  return { events, rest: splitter.flush() };
}

describe('SseEventSplitter', () => {
  it('splits a recorded stream into its events, each with its own bytes and terminator', () => {
    const { events, rest } = splitAll([recorded]);
    expect(recordedEvents).toHaveLength(15);
    expect(events).toEqual(recordedEvents);
    expect(events.at(-1)).toBe('data: [DONE]\n\n');
    expect(rest).toBe('');
  });

  it.each([
    ['\\n\\n', 'data: a\n\ndata: b\n\n', ['data: a\n\n', 'data: b\n\n']],
    ['\\r\\n\\r\\n', 'data: a\r\n\r\ndata: b\r\n\r\n', ['data: a\r\n\r\n', 'data: b\r\n\r\n']],
    ['\\r\\r', 'data: a\r\rdata: b\r\r', ['data: a\r\r', 'data: b\r\r']],
    ['mixed terminators', 'data: a\r\n\r\ndata: b\n\ndata: c\r\r', ['data: a\r\n\r\n', 'data: b\n\n', 'data: c\r\r']],
  ])('ends events at a blank line written as %s', (_label, text, expected) => {
    expect(splitAll([text])).toEqual({ events: expected, rest: '' });
  });

  it('keeps a multi-line event with CRLF line ends in one piece', () => {
    const event = 'event: message\r\ndata: {"a":1,\r\ndata: "b":2}\r\n\r\n';
    expect(splitAll([event + event]).events).toEqual([event, event]);
    expect(splitAll([event.slice(0, 20), event.slice(20)]).events).toEqual([event]);
  });

  it('holds back an unterminated event until flush', () => {
    const splitter = new SseEventSplitter();
    expect(splitter.push('data: a\n\ndata: b\n')).toEqual(['data: a\n\n']);
    expect(splitter.flush()).toBe('data: b\n');
    expect(splitter.flush()).toBe('');
  });

  it('does not end a CRLF event at a cut between its "\\r\\n" and the final "\\r\\n"', () => {
    const splitter = new SseEventSplitter();
    expect(splitter.push('data: a\r\n\r')).toEqual([]);
    expect(splitter.push('\n')).toEqual(['data: a\r\n\r\n']);
  });

  it('gives every event whole and identical however a recorded stream is cut into pushes', () => {
    const cuts = fc.uniqueArray(fc.integer({ min: 1, max: recorded.length - 1 }), { maxLength: 60 });
    fc.assert(
      fc.property(cuts, (positions) => {
        const sorted = [0, ...positions.sort((a, b) => a - b), recorded.length];
        const pieces = sorted.slice(1).map((end, index) => recorded.slice(sorted[index], end));
        expect(splitAll(pieces)).toEqual({ events: recordedEvents, rest: '' });
      }),
    );
  });

  it('gives an event whole when it is split across two pushes at every possible position', () => {
    const event = recordedEvents[1] ?? '';
    for (const terminator of ['\n\n', '\r\n\r\n', '\r\r']) {
      const text = event.replace(/\n\n$/, terminator);
      for (let cut = 0; cut <= text.length; cut += 1) {
        expect(splitAll([text.slice(0, cut), text.slice(cut), 'data: next']), `${JSON.stringify(terminator)} cut at ${cut}`).toEqual({
          events: [text],
          rest: 'data: next',
        });
      }
    }
  });

  it('gives an event split into one push per character whole', () => {
    expect(splitAll([...recorded]).events).toEqual(recordedEvents);
  });
});

describe('sseEventData', () => {
  it.each([
    ['with the space after the colon', 'data: {"a":1}\n\n', '{"a":1}'],
    ['without the space', 'data:{"a":1}\n\n', '{"a":1}'],
    ['removing only one space', 'data:  two spaces\n\n', ' two spaces'],
    ['keeping a colon inside the value', 'data: a:b\n\n', 'a:b'],
    ['joining multi-line data with "\\n"', 'data: {"a":\ndata: 1}\n\n', '{"a":\n1}'],
    ['joining CRLF multi-line data with "\\n"', 'data: x\r\ndata: y\r\n\r\n', 'x\ny'],
    ['skipping an event: line', 'event: message\ndata: [DONE]\n\n', '[DONE]'],
    ['skipping comments and id lines', ': keep-alive\nid: 7\ndata: hi\nretry: 10\n\n', 'hi'],
    ['reading a bare "data" line as empty', 'data\n\n', ''],
    ['reading "data:" as empty', 'data:\n\n', ''],
  ])('reads the data %s', (_label, event, expected) => {
    expect(sseEventData(event)).toBe(expected);
  });

  it.each([
    ['a comment', ': OPENROUTER PROCESSING\n\n'],
    ['an event with only an event: line', 'event: ping\n\n'],
    ['a field that merely starts with "data"', 'database: x\ndatum: y\n\n'],
    ['an empty string', ''],
  ])('is undefined for %s', (_label, event) => {
    expect(sseEventData(event)).toBeUndefined();
  });
});
