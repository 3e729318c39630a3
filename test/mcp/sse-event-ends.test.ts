import { describe, expect, it } from 'vitest';
import { createEventEndFinder } from '../../shared/mcp/sse-event-ends.ts';

const bytes = (text: string) => new TextEncoder().encode(text);

describe('createEventEndFinder', () => {
  it('finds the end of the last complete event in a chunk, whatever the line endings', () => {
    expect(createEventEndFinder().push(bytes('data: a\n\ndata: b\n\ndata: c'))).toBe(18);
    expect(createEventEndFinder().push(bytes('data: a\r\n\r\n'))).toBe(11);
    expect(createEventEndFinder().push(bytes('data: a\r\rdata: b'))).toBe(9);
  });

  it('answers -1 while an event is still being written, across chunks and a line ending split between them', () => {
    const ends = createEventEndFinder();
    expect(ends.push(bytes('data: {"jsonrpc":"2.0","id":1,"res'))).toBe(-1);
    expect(ends.push(bytes('ult":{}}\n'))).toBe(-1);
    expect(ends.push(bytes('\ndata: x'))).toBe(1);

    const split = createEventEndFinder();
    expect(split.push(bytes('data: a\r\n\r'))).toBe(10);
    expect(split.push(bytes('\ndata: b\r\n'))).toBe(-1);
  });

  it('reads bytes, so a multi-byte character split between chunks is no line ending', () => {
    const ends = createEventEndFinder();
    const text = bytes('data: é\n\n');
    expect(ends.push(text.subarray(0, 7))).toBe(-1);
    expect(ends.push(text.subarray(7))).toBe(3);
  });
});
