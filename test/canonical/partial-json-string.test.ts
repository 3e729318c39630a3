import { describe, expect, it } from 'vitest';
import { decodePartialJsonString } from '../../shared/canonical/partial-json-string.ts';

/** Decodes the JSON string opened by the first quote of `json`. */
const decode = (json: string) => decodePartialJsonString(json, json.indexOf('"') + 1);

describe('decodePartialJsonString', () => {
  it('decodes a whole string as JSON.parse does, escapes included, and stops at its closing quote', () => {
    const text = 'Tab\there, "quoted", back\\slash, \u00e9 \ud83d\ude00 \u0001';
    expect(decode(`${JSON.stringify(text)}, "more": 1}`)).toBe(text);
    expect(decode('"\\u00e9\\ud83d\\ude00\\/"')).toBe('é😀/');
  });

  it('gives the text received so far when the JSON was cut off inside the string', () => {
    expect(decode('"*** Begin Patch\\n*** Add Fi')).toBe('*** Begin Patch\n*** Add Fi');
  });

  it('leaves out an escape the cut split: a lone backslash, part of a \\u escape, half a surrogate pair', () => {
    expect(decode('"line\\')).toBe('line');
    expect(decode('"caf\\u00')).toBe('caf');
    expect(decode('"smile \\ud83d')).toBe('smile ');
    expect(decode('"smile \\ud83d\\ud')).toBe('smile ');
  });

  it('is undefined for text that is no JSON string', () => {
    expect(decode('"bad \\x escape"')).toBeUndefined();
    expect(decode('"raw\nnewline"')).toBeUndefined();
    expect(decode('"bad \\uZZZZ"')).toBeUndefined();
  });
});
