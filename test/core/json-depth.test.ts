import { describe, expect, it } from 'vitest';
import { exceedsJsonDepth } from '../../shared/core/json-depth.ts';

const nested = (depth: number): unknown => {
  let value: unknown = 'leaf';
  for (let level = 0; level < depth; level += 1) value = level % 2 === 0 ? { a: value } : [value];
  return value;
};

describe('exceedsJsonDepth', () => {
  it('accepts a value exactly as deep as the limit and refuses one level more', () => {
    expect(exceedsJsonDepth(nested(128), 128)).toBe(false);
    expect(exceedsJsonDepth(nested(129), 128)).toBe(true);
  });

  it('walks 100,000 levels without running out of stack', () => {
    expect(exceedsJsonDepth(nested(100_000))).toBe(true);
  });

  it('counts only containers: scalars at any place add no depth', () => {
    expect(exceedsJsonDepth({ a: 1, b: 'x', c: null, d: [1, 2, 3] }, 2)).toBe(false);
  });
});
