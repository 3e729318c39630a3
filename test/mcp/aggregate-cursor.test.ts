import { describe, expect, it } from 'vitest';
import { decodeAggregateCursor, encodeAggregateCursor } from '../../shared/mcp/aggregate-cursor.ts';

describe('the aggregate cursor', () => {
  it("carries each server's own cursor there and back", () => {
    const positions = { docs: 'page-2', tickets: 'eyJvZmZzZXQiOjJ9' };
    const cursor = encodeAggregateCursor(positions);
    expect(cursor).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(decodeAggregateCursor(cursor ?? '')).toEqual(positions);
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
