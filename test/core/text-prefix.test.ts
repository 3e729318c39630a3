import { describe, expect, it } from 'vitest';
import { textPrefix } from '../../shared/core/text-prefix.ts';

describe('textPrefix', () => {
  it('keeps a text within the length as it is', () => {
    expect(textPrefix('Hello 🚀', 8)).toBe('Hello 🚀');
  });

  it('cuts a longer text at the length', () => {
    expect(textPrefix('abcdef', 4)).toBe('abcd');
  });

  it('never ends on half of a surrogate pair: the emoji the cut would split is left out whole', () => {
    const cut = textPrefix(`${'a'.repeat(255)}🚀`, 256);
    expect(cut).toBe('a'.repeat(255));
    expect(cut.isWellFormed()).toBe(true);
    expect(textPrefix(`${'a'.repeat(254)}🚀`, 256)).toBe(`${'a'.repeat(254)}🚀`);
  });
});
