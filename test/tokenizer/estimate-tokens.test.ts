import { describe, expect, it } from 'vitest';
import { countTokens, EXACT_COUNT_LIMIT_CHARS } from '../../shared/tokenizer/estimate-tokens.ts';

const distinctWords = (chars: number) => {
  const words: string[] = [];
  let length = 0;
  for (let index = 0; length < chars; index += 1) {
    const word = `w${index.toString(36)}q${((index * 7919) % 65_521).toString(36)}`;
    words.push(word);
    length += word.length + 1;
  }
  return words.join(' ').slice(0, chars);
};

describe('countTokens', () => {
  it('counts short text exactly with o200k_base', async () => {
    expect(await countTokens('Hello world, this is a test')).toBe(7);
    expect(await countTokens('')).toBe(0);
  });

  it('lets other work run while it counts a large text: it yields to the event loop between slices', async () => {
    let otherWorkRan = false;
    const counting = countTokens(distinctWords(200_000));
    setImmediate(() => (otherWorkRan = true));
    const ranBeforeTheCountWasDone = await counting.then(() => otherWorkRan);
    expect(ranBeforeTheCountWasDone).toBe(true);
  });

  it('extrapolates past the exact limit from the part it counted, so 4.5 MB costs no more than 256 kB', async () => {
    const text = distinctWords(4_500_000);
    const counted = await countTokens(text.slice(0, EXACT_COUNT_LIMIT_CHARS));
    expect(await countTokens(text)).toBe(Math.ceil((counted * text.length) / EXACT_COUNT_LIMIT_CHARS));
  });

  it('cuts a run of 100,000 characters without whitespace into words, and still counts about one token per few of them', async () => {
    const tokens = await countTokens('x'.repeat(100_000));
    expect(tokens).toBeGreaterThan(100_000 / 64);
    expect(tokens).toBeLessThan(100_000);
  });
});
