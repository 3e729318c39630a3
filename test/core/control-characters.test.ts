import { describe, expect, it } from 'vitest';
import { escapeControlCharacters, hasControlCharacter } from '../../shared/core/control-characters.ts';

describe('control characters', () => {
  it.each([
    ['ESC', '\u001b'],
    ['BEL', '\u0007'],
    ['NUL', '\u0000'],
    ['a line break', '\n'],
    ['a tab', '\t'],
    ['DEL', '\u007f'],
    ['C1 CSI', '\u009b'],
    ['a right-to-left override', '\u202e'],
    ['a first-strong isolate', '\u2068'],
    ['a line separator', '\u2028'],
  ])('finds %s and escapes it as \\u followed by four hex digits', (_name, character) => {
    expect(hasControlCharacter(`a${character}b`)).toBe(true);
    expect(escapeControlCharacters(`a${character}b`)).toBe(`a\\u${character.charCodeAt(0).toString(16).padStart(4, '0')}b`);
  });

  it('leaves printable text as it is: accents, other scripts, emoji, backslashes', () => {
    const text = 'Zoë’s 鍵 🔑 مفتاح C:\\keys';
    expect(hasControlCharacter(text)).toBe(false);
    expect(escapeControlCharacters(text)).toBe(text);
  });
});
