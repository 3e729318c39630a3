import { describe, expect, it } from 'vitest';
import { unwrapCustomToolInput, unwrapParsedCustomToolInput } from '../../shared/canonical/custom-tool-input.ts';

describe('unwrapCustomToolInput', () => {
  it('takes the text out of a whole wrapper', () => {
    expect(unwrapCustomToolInput('{"input": "*** Begin Patch\\n*** End Patch"}')).toBe('*** Begin Patch\n*** End Patch');
  });

  it('gives the text received so far when the output cap cut the wrapper off inside its string', () => {
    expect(unwrapCustomToolInput('{"input": "*** Begin Patch\\n*** Add Fi')).toBe('*** Begin Patch\n*** Add Fi');
    expect(unwrapCustomToolInput('{ "input" :"x\\"y\\')).toBe('x"y');
  });

  it('gives no text when the cap cut the wrapper off before its string began', () => {
    for (const cutOff of ['', '{', ' { "in', '{"input"', '{"input": ', '{}']) expect(unwrapCustomToolInput(cutOff)).toBe('');
  });

  it('keeps JSON of another shape as it came, so the client sees what the model wrote', () => {
    expect(unwrapCustomToolInput('{"patch": "x"}')).toBe('{"patch": "x"}');
    expect(unwrapCustomToolInput('{"patch": "x')).toBe('{"patch": "x');
    expect(unwrapCustomToolInput('not json')).toBe('not json');
  });
});

describe('unwrapParsedCustomToolInput', () => {
  it('takes the text out of a parsed input; an empty input (the cap cut the parameter off) is no text', () => {
    expect(unwrapParsedCustomToolInput({ input: 'patch' })).toBe('patch');
    expect(unwrapParsedCustomToolInput({})).toBe('');
    expect(unwrapParsedCustomToolInput({ patch: 'x' })).toBe('{"patch":"x"}');
  });
});
