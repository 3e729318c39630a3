import { describe, expect, it } from 'vitest';
import { decodeAggregateCursor, encodeAggregateCursor, positionOf } from '../../shared/mcp/aggregate-cursor.ts';

describe('the aggregate cursor', () => {
  it("carries each server's own cursor there and back", () => {
    const positions = { docs: 'page-2', tickets: 'eyJvZmZzZXQiOjJ9' };
    const cursor = encodeAggregateCursor(positions);
    expect(cursor).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(decodeAggregateCursor(cursor ?? '')).toEqual(positions);
  });

  it('gives a position only for a server the cursor names, not for one named like an inherited property', () => {
    const positions = decodeAggregateCursor(encodeAggregateCursor({ docs: 'page-2' }) ?? '') ?? {};
    expect(positionOf(positions, 'docs')).toBe('page-2');
    expect(positionOf(positions, 'constructor')).toBeUndefined();
    expect(positionOf({ constructor: 'page-3' }, 'constructor')).toBe('page-3');
  });

  it('is absent when no server has more: the list is complete', () => {
    expect(encodeAggregateCursor({})).toBeUndefined();
  });

  it.each(['', 'not-a-cursor', Buffer.from('{"next":{"Bad_Name":"x"}}').toString('base64url'), Buffer.from('{"next":{"docs":3}}').toString('base64url'), Buffer.from('[]').toString('base64url')])(
    'refuses a cursor it did not hand out: %s',
    (cursor) => {
      expect(decodeAggregateCursor(cursor)).toBeUndefined();
    },
  );
});
