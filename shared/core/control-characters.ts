/**
 * Characters a terminal acts on rather than shows: C0 controls (ESC, BEL, newline…), DEL and C1 controls
 * (U+0080–U+009F, which some terminals read as ESC sequences), the line and paragraph separators, and the
 * bidirectional marks, embeddings, overrides and isolates that make text display in another order than
 * it is stored (U+202E). Names refuse them at input; the CLI's output for people shows them escaped.
 */
const CONTROL_CHARACTER_CLASS = '[\\u0000-\\u001f\\u007f-\\u009f\\u061c\\u200e\\u200f\\u2028\\u2029\\u202a-\\u202e\\u2066-\\u2069]';

const anyControlCharacter = new RegExp(CONTROL_CHARACTER_CLASS, 'u');
const everyControlCharacter = new RegExp(CONTROL_CHARACTER_CLASS, 'gu');

export function hasControlCharacter(text: string): boolean {
  return anyControlCharacter.test(text);
}

/** Each control character as a visible `\u001b` (as JSON writes it); every other character as it is. */
export function escapeControlCharacters(text: string): string {
  return text.replace(everyControlCharacter, (character) => `\\u${(character.codePointAt(0) ?? 0).toString(16).padStart(4, '0')}`);
}
